// The settings dialog: language, double click, four colours, left-handed
// layout, the live check (still winnable?), appearance. Each change is saved and applied at once; changed()
// lets the page translate itself and redraw the screen.
import { LANGS, loadLang, lang } from './i18n.js';
import { saveSettings, applySettings } from './settings.js';

const FLAGS = ['dblclick', 'fourColor', 'leftHanded', 'stillCheck'];

/** settingsDialog wires #dlg-set to settings and returns the function that opens it. */
export function settingsDialog(settings, changed) {
  const dlg = document.querySelector('#dlg-set');
  const form = dlg.querySelector('form');
  for (const l of LANGS) {
    const o = document.createElement('option');
    o.value = l;
    form.lang.append(o);
  }
  // each language is named in itself, which only its own catalogue knows
  const names = async () => {
    for (const o of form.lang.options) o.textContent = (await import(`./i18n/${o.value}.js`)).default.lang;
  };
  form.addEventListener('change', async () => {
    for (const k of FLAGS) settings[k] = form[k].checked;
    settings.theme = form.theme.value;
    const relang = form.lang.value !== lang();
    if (relang) {
      settings.lang = form.lang.value;
      await loadLang(settings.lang);
    }
    saveSettings(settings);
    applySettings(settings);
    changed(relang);
  });
  return () => {
    form.lang.value = lang();
    form.theme.value = settings.theme;
    for (const k of FLAGS) form[k].checked = !!settings[k];
    names();
    dlg.showModal();
  };
}
