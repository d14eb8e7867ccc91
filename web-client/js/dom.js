// Small DOM helpers the views share: elements by id, and a text-only element (text from the
// server is always set as textContent, never as HTML).

/** `{id: element}` for these ids (null for one the page does not have). */
export function byId(ids) {
  return Object.fromEntries(ids.map((id) => [id, document.getElementById(id)]));
}

/** A new element with a class and its text. */
export function part(className, text, tag = 'span') {
  const element = document.createElement(tag);
  element.className = className;
  element.textContent = text;
  return element;
}

/** A table cell with a class and its text. */
export function cell(className, text) {
  return part(className, text, 'td');
}

/** Gives `select` the choices `[value, text]`, unless it shows them already (its value stays). */
export function setOptions(select, choices) {
  const shown = [...select.options].map((o) => [o.value, o.textContent]);
  if (JSON.stringify(shown) === JSON.stringify(choices.map(([value, text]) => [String(value), text]))) return;
  select.replaceChildren(
    ...choices.map(([value, text]) => {
      const option = document.createElement('option');
      option.value = String(value);
      option.textContent = text;
      return option;
    }),
  );
}
