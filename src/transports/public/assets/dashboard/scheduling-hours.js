// Weekly hours (dashboard Scheduling): a "Copy Monday to Tuesday–Friday" button, since most weeks repeat
// one day. Without this script every row is typed by hand; the form itself needs no script.
(() => {
  const form = document.querySelector('form.sched-hours');
  if (!form) return;
  const days = ['tuesday', 'wednesday', 'thursday', 'friday'];
  const stretchesOf = (day) => [...form.querySelectorAll(`input[name^="${day}_start_"]`)].map((start) => start.closest('.sched-stretch'));

  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Copy Monday to Tuesday–Friday';
  const status = document.createElement('p');
  status.className = 'hint';
  status.setAttribute('role', 'status');
  const hint = form.querySelector('.hint');
  hint.after(button, status);

  button.addEventListener('click', () => {
    const monday = stretchesOf('monday').map((span) => [...span.querySelectorAll('input')].map((input) => input.value));
    for (const day of days) {
      const holder = form.querySelector(`#wh-${day}`).parentElement.querySelector('.sched-stretches');
      let spans = stretchesOf(day);
      // Enough pairs for Monday's stretches: copies of the day's last pair, renamed.
      while (spans.length < monday.length) {
        const last = spans[spans.length - 1];
        const copy = last.cloneNode(true);
        const index = spans.length;
        for (const element of copy.querySelectorAll('[id],[for],[name]')) {
          for (const attribute of ['id', 'for', 'name']) {
            const value = element.getAttribute(attribute);
            if (value)
              element.setAttribute(
                attribute,
                value.replace(/\d+(-start|-end)?$/, (_, end) => `${index}${end ?? ''}`),
              );
          }
        }
        for (const hidden of copy.querySelectorAll('.visually-hidden'))
          hidden.textContent = hidden.textContent.replace(/(, stretch \d+)?, $/, `, stretch ${index + 1}, `);
        holder.append(copy);
        spans = stretchesOf(day);
      }
      spans.forEach((span, i) => {
        const [start, end] = span.querySelectorAll('input');
        start.value = monday[i]?.[0] ?? '';
        end.value = monday[i]?.[1] ?? '';
      });
    }
    status.textContent = 'Tuesday to Friday now have Monday’s hours. Save to keep them.';
  });
})();
