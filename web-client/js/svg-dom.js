// Turns a drawing described as plain data into SVG elements. The pure modules (playing-cards.js,
// emoji-cards.js) describe what to draw; this is the only place that builds their DOM.
//
// A drawing: {viewBox: '0 0 250 350', shapes: [Shape]}
// A shape:   {tag: 'path'|'rect'|'circle'|'text'|'g'|…, attrs: {name: value}, text?, children?: [Shape]}
// Text goes in with textContent, never parsed; attribute values are set with setAttribute.

import { SVG_NS } from './card-view.js';

/** Append the SVG elements for `shapes` to `parent`. */
export function appendShapes(parent, shapes) {
  for (const shape of shapes) {
    const node = document.createElementNS(SVG_NS, shape.tag);
    for (const [name, value] of Object.entries(shape.attrs ?? {})) node.setAttribute(name, String(value));
    if (typeof shape.text === 'string') node.textContent = shape.text;
    if (Array.isArray(shape.children)) appendShapes(node, shape.children);
    parent.append(node);
  }
  return parent;
}

/** A new `<svg class=className>` holding `drawing`, hidden from assistive technology (the card
 * element carries the label). */
export function createDrawing(drawing, className) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', className);
  svg.setAttribute('viewBox', drawing.viewBox);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  return appendShapes(svg, drawing.shapes);
}
