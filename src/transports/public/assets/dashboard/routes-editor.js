// The step editor (/app/routes/{id}/steps/{step}): each choice shows only the field its target uses,
// and the form is checked as add_route_branches checks it before it is sent (labels present, at most
// 80 characters, unique whatever the case; a target and its field; links https), with each problem
// beside its field. The server checks everything again; without this script every field shows.
(() => {
  const form = document.querySelector('form[data-route-editor]');
  if (!form) return;
  // Which detail field each target uses (the label's data-for).
  const FIELD_OF = { step: 'to_step', new_step: 'to_video', url: 'url', booking: 'event_type' };
  const rows = [...form.querySelectorAll('fieldset.choice-row')];

  function sync(row) {
    const target = row.querySelector('select[name^="target_"]').value;
    for (const field of row.querySelectorAll('.target-field')) field.hidden = field.dataset.for !== FIELD_OF[target];
  }

  function clearProblems() {
    for (const note of form.querySelectorAll('.field-error[data-client]')) note.remove();
    for (const input of form.querySelectorAll('[data-client-invalid]')) {
      input.removeAttribute('aria-invalid');
      input.removeAttribute('aria-describedby');
      input.removeAttribute('data-client-invalid');
    }
  }

  function flag(input, problem) {
    const id = `${input.id}-client-error`;
    const note = document.createElement('span');
    note.className = 'field-error';
    note.id = id;
    note.dataset.client = '';
    note.textContent = problem;
    input.insertAdjacentElement('afterend', note);
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', id);
    input.dataset.clientInvalid = '';
  }

  function check() {
    const problems = [];
    const seen = new Map();
    let filled = 0;
    for (const row of rows) {
      const label = row.querySelector('input[name^="label_"]');
      const target = row.querySelector('select[name^="target_"]');
      const text = label.value.trim();
      if (text === '' && target.value === '') continue;
      filled++;
      if (text === '') problems.push([label, 'must not be empty']);
      else if ([...text].length > 80) problems.push([label, 'must be at most 80 characters']);
      else {
        const key = text.normalize('NFC').toLowerCase();
        if (seen.has(key)) problems.push([label, `repeats the label of choice ${seen.get(key)}`]);
        else seen.set(key, row.querySelector('legend').textContent.replace('Choice ', ''));
      }
      if (target.value === '') {
        problems.push([target, 'choose where it leads']);
        continue;
      }
      const fieldName = FIELD_OF[target.value];
      if (!fieldName) continue;
      const field = row.querySelector(`[name^="${fieldName}_"]`);
      if (field.value.trim() === '') problems.push([field, 'is needed for this target']);
      else if (fieldName === 'url') {
        let url;
        try {
          url = new URL(field.value.trim());
        } catch {}
        if (url?.protocol !== 'https:') problems.push([field, 'must be an https link']);
      }
    }
    const summary = form.querySelector('.form-problems');
    if (filled === 0) {
      summary.hidden = false;
      summary.textContent = 'Give the step at least one choice.';
      return false;
    }
    for (const [input, problem] of problems) flag(input, problem);
    summary.hidden = problems.length === 0;
    summary.textContent =
      problems.length === 0
        ? ''
        : `Not sent: ${problems.length === 1 ? 'one problem' : `${problems.length} problems`}, shown beside the fields.`;
    if (problems.length > 0) problems[0][0].focus();
    return problems.length === 0;
  }

  for (const row of rows) {
    sync(row);
    row.querySelector('select[name^="target_"]').addEventListener('change', () => sync(row));
  }
  form.addEventListener('submit', (event) => {
    clearProblems();
    if (!check()) event.preventDefault();
  });
})();
