// The times beside the transcript's lines and the retention curve's moments, made into buttons that
// play the video on this page from there (as Wistia's and Loom's transcripts do). Without this script
// (or without a player, before the video is ready) they stay plain text.
const player = document.getElementById('player');
if (player instanceof HTMLVideoElement) {
  for (const time of document.querySelectorAll('[data-seek]')) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'video-seek';
    button.textContent = time.textContent;
    button.setAttribute('aria-label', `Play from ${time.textContent}`);
    const seconds = Number(time.dataset.seek);
    button.addEventListener('click', () => {
      player.currentTime = seconds;
      player.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
      player.play().catch(() => {});
    });
    time.replaceWith(button);
  }
}
