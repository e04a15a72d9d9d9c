// Which fields an endpoint accepts, nested objects included, so an unknown one is named by its path
// (`debtor.foo`) and the whole request is refused before any rule runs (docs/decisions/requests.md).

/** A field's name maps to true, or to the fields of the object it holds. */
export type FieldTree = { readonly [field: string]: true | FieldTree };

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The sent fields the tree does not name, as paths, in the order sent. */
export function unknownFields(body: Record<string, unknown>, tree: FieldTree, prefix = ''): string[] {
  return Object.entries(body).flatMap(([field, value]) => {
    if (!Object.hasOwn(tree, field)) return [prefix + field];
    const nested = tree[field];
    return nested !== true && isJsonObject(value) ? unknownFields(value, nested, `${prefix}${field}.`) : [];
  });
}
