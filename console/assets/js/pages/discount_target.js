// A discount's target (a category or an item of the POS) by name: the
// form's picker, filled from the catalogue the till sends (GET
// /api/catalogue, docs/API.md "The POS catalogue"), with "another id"
// for one the catalogue does not hold; and the list's words for it.
import { t, addStrings } from '../i18n.js';
import { h } from '../ui.js';

addStrings({
  de: {
    'dtarget.category': 'Kategorie', 'dtarget.item': 'Artikel',
    'dtarget.choose': 'Bitte wählen …', 'dtarget.other': 'Andere ID eingeben …', 'dtarget.no_category': 'Ohne Kategorie',
    'dtarget.other_hint': 'Für eine Kategorie oder einen Artikel, den die Kasse (noch) nicht gemeldet hat: die ID (UUID) aus der Artikelverwaltung der Kasse.',
    'dtarget.no_catalogue_hint': 'Die ID (UUID) aus der Artikelverwaltung der Kasse. Sobald die Kasse ihre Kategorien und Artikel an die posbox sendet, wählen Sie hier nach Namen.',
    'dtarget.unknown.category': 'Unbekannte Kategorie', 'dtarget.unknown.item': 'Unbekannter Artikel',
    'dtarget.unknown_hint': 'Nicht in der Artikelliste der Kasse – ID',
  },
  en: {
    'dtarget.category': 'Category', 'dtarget.item': 'Item',
    'dtarget.choose': 'Please choose …', 'dtarget.other': 'Enter another ID …', 'dtarget.no_category': 'No category',
    'dtarget.other_hint': 'For a category or item the till has not sent (yet): the ID (UUID) from the till\'s item management.',
    'dtarget.no_catalogue_hint': 'The ID (UUID) from the till\'s item management. Once the till sends its categories and items to the posbox, you choose them here by name.',
    'dtarget.unknown.category': 'Unknown category', 'dtarget.unknown.item': 'Unknown item',
    'dtarget.unknown_hint': 'Not in the till\'s item list – ID',
  },
});

const OTHER = '__other';
const byName = (a, b) => a.name.localeCompare(b.name, 'de');

// emptyCatalogue is what the form works with when the till sent none (or
// it could not be read): the id is typed, as before.
export const emptyCatalogue = { categories: [], items: [] };

// targetPicker turns the field box of category_id or item_id (kind
// 'category' or 'item', built by ui.field with its text input) into a
// select by name with "another id". The text input keeps the value the
// form sends and drafts; the select only sets it, and starts from it (so
// make it after the draft was restored). Without a catalogue the box
// stays a text input with its hint.
export function targetPicker(box, kind, catalogue) {
  const input = box.querySelector('input');
  const hint = box.querySelector('.hint');
  const entries = kind === 'category' ? catalogue.categories : catalogue.items;
  if (!entries.length) {
    hint.textContent = t('dtarget.no_catalogue_hint');
    return;
  }
  hint.textContent = t('dtarget.other_hint');
  const own = h('div', { class: 'target-id' }, ...box.querySelectorAll(':scope > label, :scope > input'));
  const known = new Set(entries.map((e) => e.id));
  const select = h('select', { id: `${input.id}-pick`, class: 'target-pick', 'aria-describedby': input.getAttribute('aria-describedby') },
    h('option', { value: '' }, t('dtarget.choose')),
    kind === 'category' ? [...entries].sort(byName).map((c) => h('option', { value: c.id }, c.name)) : itemGroups(catalogue),
    h('option', { value: OTHER }, t('dtarget.other')));
  const label = h('label', { for: select.id }, t(`dtarget.${kind}`), h('span', { class: 'req', 'aria-hidden': 'true' }, ' *'));
  box.prepend(label, select, own);

  function show() {
    const other = select.value === OTHER;
    own.hidden = !other;
    hint.hidden = !other;
  }
  select.addEventListener('change', () => {
    select.removeAttribute('aria-invalid');
    if (select.value !== OTHER) input.value = select.value;
    else if (known.has(input.value)) input.value = '';
    show();
    if (select.value === OTHER) input.focus();
    input.dispatchEvent(new Event('input', { bubbles: true })); // the draft and the field's error follow
  });
  const v = input.value.trim();
  select.value = known.has(v) ? v : v ? OTHER : '';
  show();
}

// itemGroups are the items by category (categories by name, then the
// items of none or of a category the catalogue does not hold).
function itemGroups(catalogue) {
  const groups = new Map([...catalogue.categories].sort(byName).map((c) => [c.id, { name: c.name, items: [] }]));
  const none = { name: t('dtarget.no_category'), items: [] };
  for (const it of catalogue.items) (groups.get(it.category_id) || none).items.push(it);
  return [...groups.values(), none].filter((g) => g.items.length)
    .map((g) => h('optgroup', { label: g.name }, g.items.sort(byName).map((it) => h('option', { value: it.id }, it.name))));
}

// targetCell is the list's words for a discount's target: its name from
// the catalogue; an id the catalogue does not hold is "unknown" with the
// id beside it (to find it in the till). null for a whole-order discount.
export function targetCell(d) {
  const kind = d.applicable_to;
  if (kind !== 'category' && kind !== 'item') return null;
  const name = kind === 'category' ? d.category_name : d.item_name;
  const id = kind === 'category' ? d.category_id : d.item_id;
  if (name) return h('div', { class: 'target-name' }, name);
  return h('div', { class: 'target-unknown' }, t(`dtarget.unknown.${kind}`),
    h('div', { class: 'muted small-text' }, t('dtarget.unknown_hint'), ' ', h('span', { class: 'id-text' }, id)));
}
