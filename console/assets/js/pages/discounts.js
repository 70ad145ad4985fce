// Placeholder until the page is written.
import { t } from '../i18n.js';
import { h } from '../ui.js';

export default {
  render(main) { main.append(h('h1', {}, t('nav.discounts'))); },
};
