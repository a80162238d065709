// The dashboard's one shared script: "/" anywhere but in a field jumps to the search box, as in
// GitHub, Linear and Stripe. Everything else on the pages works without it.
document.addEventListener('keydown', (event) => {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
  const search = document.getElementById('dashboard-search');
  if (!search) return;
  event.preventDefault();
  search.focus();
});
