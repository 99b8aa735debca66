/**
 * Gives `node` a copy of `type`'s prototype, as a node has in a frame's page world when another window
 * of the page touched it first: Chromium then builds its wrapper from that window's classes, so
 * `instanceof` against the frame's own classes fails while every property still works.
 */
export function withForeignPrototype<T extends object>(node: T, type: abstract new () => object): T {
  const own: unknown = Reflect.get(type, 'prototype');
  if (typeof own !== 'object' || own === null) throw new Error('not a class');
  const parent = Reflect.getPrototypeOf(own);
  Reflect.setPrototypeOf(node, Object.create(parent, Object.getOwnPropertyDescriptors(own)) as object);
  if (node instanceof type) throw new Error('the node still has its own realm');
  return node;
}
