// The page's elements, made as text only: trace text reaches the page through textContent and
// createElement, never as markup.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** A new `tag` element with a class and text, either of them optional. */
export function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
}

/** Removes every child of `node`. */
export function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
}
