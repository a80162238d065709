// The caption form's file picker: reads the chosen .vtt or .srt file into the "Captions" field and
// picks the format from its name, so the form posts text as it does without script (pasting). The
// picker is hidden in the HTML because without this script it would send nothing.
const picker = document.getElementById('caption-file');
const text = document.getElementById('caption-text');
const format = document.getElementById('caption-format');
if (picker && text && format && window.FileReader) {
  picker.closest('label').hidden = false;
  picker.addEventListener('change', async () => {
    const file = picker.files?.[0];
    if (!file) return;
    text.value = await file.text();
    if (/\.srt$/i.test(file.name)) format.value = 'srt';
    else if (/\.vtt$/i.test(file.name)) format.value = 'webvtt';
  });
}
