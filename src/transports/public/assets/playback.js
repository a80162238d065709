/*
 * The Cuepoint playback script (GET /playback.js), loaded before /player.js by the pages that may
 * play an adaptive stream: a watch or embed page whose video has a ready rendition, and the route
 * player. It gives a <video> its source: the HLS stream natively where the browser plays it well
 * (Safari), through hls.js where Media Source Extensions are there (hls.js chooses the rendition as
 * the connection allows), the original file otherwise. If the stream fails for good it goes back to
 * the original file at the same moment, so the player never dies. hls.js is fetched from our own
 * origin (this script tag's data-hls-script) only when a video is to play through it.
 *
 * What it did is on the element: data-cuepoint-engine is `hls.js`, `native` or `file`;
 * data-cuepoint-levels lists the renditions hls.js was offered and data-cuepoint-level the one it
 * has loaded (`720p`), and a `cuepoint:levelswitch` event says when that changes. Reporting
 * (/player.js) reads the element's own events; when a failed stream must be replaced mid-play, the
 * element is reloaded, and `cuepoint:swapping` … `cuepoint:swapped` frame that so it reports nothing
 * the viewer did not do; and when hls.js moves the playhead over a hole in the stream by itself,
 * `cuepoint:enginejump` says so first, so that is not reported as the viewer's seek. docs/viewer.md describes it. Plain browser JavaScript, no build step.
 */
(() => {
  const HLS_TYPE = 'application/vnd.apple.mpegurl';
  const hlsScript = document.currentScript?.dataset.hlsScript;
  let hlsLoading = null;

  /** Per video element: the source it was given, its hls.js instance, and a number that changes with each new source. */
  const players = new WeakMap();

  function playerOf(video) {
    let player = players.get(video);
    if (!player) {
      player = { source: null, hls: null, stop: null, generation: 0 };
      players.set(video, player);
    }
    return player;
  }

  /** window.Hls, fetched once for the page; null when it cannot be had (the original file plays). */
  function loadHlsJs() {
    hlsLoading ??= new Promise((resolve) => {
      if (window.Hls) return resolve(window.Hls);
      if (!hlsScript) return resolve(null);
      const script = document.createElement('script');
      script.src = hlsScript;
      script.async = true;
      script.onload = () => resolve(window.Hls ?? null);
      script.onerror = () => resolve(null);
      document.head.append(script);
    });
    return hlsLoading;
  }

  /**
   * Whether to hand the playlist to the browser itself. Safari plays HLS natively, and better than
   * any script could (AirPlay, battery); its ManagedMediaSource tells it apart. Other browsers that
   * answer "maybe" (recent Chrome) play some streams badly, so they get hls.js when they can run it;
   * a browser with native HLS and no Media Source Extensions at all (older iPhones) plays it itself.
   */
  function playsNatively(video) {
    if (video.canPlayType(HLS_TYPE) === '') return false;
    return 'ManagedMediaSource' in window || !('MediaSource' in window);
  }

  function mark(video, engine) {
    video.dataset.cuepointEngine = engine;
    if (engine !== 'hls.js') {
      delete video.dataset.cuepointLevel;
      delete video.dataset.cuepointLevels;
    }
  }

  /** Whether the viewer has played or moved the video: a source swapped then must resume where they are. */
  function started(video) {
    return !video.paused || video.played.length > 0 || video.currentTime > 0;
  }

  /** The original file as the source; the src is left alone when it is that already, so nothing reloads. */
  function setFile(video, src, preload) {
    if (video.getAttribute('src') !== src) video.src = src;
    video.preload = preload;
  }

  /**
   * Gives the video this source ({ src: the original file, hls: its master playlist or null}),
   * dropping what it played before. Resolves once the source that will play is in place (hls.js may
   * have to be fetched first); the original is in place meanwhile, and a viewer who starts it before
   * hls.js arrives goes on watching it.
   */
  function load(video, source) {
    const player = playerOf(video);
    player.stop?.();
    player.stop = null;
    player.hls = null;
    player.source = source;
    const generation = ++player.generation;
    if (!source.hls) {
      setFile(video, source.src, 'metadata');
      mark(video, 'file');
      return Promise.resolve();
    }
    if (playsNatively(video)) {
      playNatively(video, player);
      return Promise.resolve();
    }
    setFile(video, source.src, 'none');
    mark(video, 'file');
    return loadHlsJs().then((Hls) => {
      if (player.generation !== generation) return;
      if (Hls?.isSupported() && !started(video)) playThroughHlsJs(video, player, Hls);
      else video.preload = 'metadata';
    });
  }

  function playNatively(video, player) {
    const generation = player.generation;
    video.src = player.source.hls;
    video.preload = 'metadata';
    mark(video, 'native');
    const failed = () => {
      if (player.generation === generation) fallBack(video, player, `the browser could not play the stream (${video.error?.code})`);
    };
    video.addEventListener('error', failed);
    player.stop = () => video.removeEventListener('error', failed);
  }

  function levelName(level) {
    return level ? `${Math.min(level.width, level.height)}p` : '';
  }

  function playThroughHlsJs(video, player, Hls) {
    const generation = player.generation;
    const hls = new Hls({
      // Transmuxing on the page, not in a worker hls.js would start from a blob: URL: the pages' CSP
      // then needs no worker-src. A few-second segment is a few milliseconds of work.
      enableWorker: false,
      // A rendition larger than the player shows nothing more; a small embed fetches a small one.
      capLevelToPlayerSize: true,
      // Until the viewer plays, fetch what preload="metadata" would: the playlists and one segment,
      // for the duration and the first picture. Playing lifts the limit to hls.js's own.
      maxBufferLength: 1,
      maxMaxBufferLength: 1,
    });
    const play = () => {
      hls.config.maxBufferLength = Hls.DefaultConfig.maxBufferLength;
      hls.config.maxMaxBufferLength = Hls.DefaultConfig.maxMaxBufferLength;
    };
    video.addEventListener('play', play, { once: true });
    player.hls = hls;
    player.stop = () => {
      video.removeEventListener('play', play);
      hls.destroy();
    };
    mark(video, 'hls.js');

    hls.on(Hls.Events.MANIFEST_PARSED, (_event, data) => {
      video.dataset.cuepointLevels = data.levels.map(levelName).join(' ');
    });
    hls.on(Hls.Events.LEVEL_SWITCHED, (_event, data) => {
      const level = hls.levels[data.level];
      video.dataset.cuepointLevel = levelName(level);
      const detail = { level: levelName(level), width: level?.width, height: level?.height, bitrate: level?.bitrate };
      video.dispatchEvent(new CustomEvent('cuepoint:levelswitch', { detail }));
    });
    // hls.js retries what can be retried and switches renditions by itself; an error it calls fatal
    // ends the stream. (Its recoverMediaError would reload the element behind the reporting's back;
    // the original file cures a decoding failure as well.)
    const engineJumps = new Set([Hls.ErrorDetails.BUFFER_SEEK_OVER_HOLE, Hls.ErrorDetails.BUFFER_NUDGE_ON_STALL]);
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (player.generation !== generation) return;
      if (data.fatal) fallBack(video, player, data.details);
      else if (engineJumps.has(data.details)) {
        // hls.js has just moved the playhead over a hole in the stream (told as a non-fatal error,
        // right after it set currentTime): the reporting must not take the seek for the viewer's.
        video.dispatchEvent(new CustomEvent('cuepoint:enginejump', { detail: { to: video.currentTime } }));
      }
    });
    hls.loadSource(player.source.hls);
    hls.attachMedia(video);
    // The preload="none" that kept the original from loading would hold the MediaSource back too.
    video.preload = 'metadata';
  }

  /**
   * The stream failed for good: the original file plays instead. Not started yet, it just takes the
   * stream's place. Started, it goes on from the same second, playing if it was, and the reload in
   * between (the element empties, rewinds, pauses by itself) is framed by cuepoint:swapping and
   * cuepoint:swapped, so the reporting does not take it for something the viewer did.
   */
  function fallBack(video, player, reason) {
    console.warn(`cuepoint: the adaptive stream failed (${reason}); playing the original file`);
    const generation = ++player.generation;
    const resumeAt = video.currentTime;
    const wasPlaying = !video.paused;
    const swapping = started(video);
    if (swapping) video.dispatchEvent(new Event('cuepoint:swapping'));
    player.stop?.();
    player.stop = null;
    player.hls = null;
    mark(video, 'file');
    video.src = player.source.src;
    video.preload = 'metadata';
    if (!swapping) return;
    const current = () => player.generation === generation;
    let resumed = false;
    (async () => {
      try {
        await nextEvent(video, 'loadedmetadata');
        if (current() && resumeAt > 0) {
          video.currentTime = resumeAt;
          await nextEvent(video, 'seeked');
        }
        resumed = current();
        if (resumed && wasPlaying) await video.play();
      } catch {
        // The original failed too, or the browser would not resume: the viewer has the controls.
      } finally {
        // `resumedAt`: the file took over at the very moment the stream stopped (null: it did not).
        video.dispatchEvent(new CustomEvent('cuepoint:swapped', { detail: { resumedAt: resumed ? resumeAt : null } }));
      }
    })();
  }

  /** Resolves at the element's next `type` event; rejects if it errs first. */
  function nextEvent(video, type) {
    return new Promise((resolve, reject) => {
      const done = (settle) => (event) => {
        video.removeEventListener(type, onEvent);
        video.removeEventListener('error', onError);
        settle(event);
      };
      const onEvent = done(resolve);
      const onError = done(reject);
      video.addEventListener(type, onEvent);
      video.addEventListener('error', onError);
    });
  }

  window.cuepointPlayback = {
    load,
    /** The source last given to the video ({ src, hls }), or null. */
    sourceOf: (video) => players.get(video)?.source ?? null,
  };

  // A watch or embed page: its one video, with its stream named by the page.
  const video = document.querySelector('video[data-cuepoint-token][data-cuepoint-hls]');
  if (video) load(video, { src: video.getAttribute('src'), hls: video.dataset.cuepointHls });
})();
