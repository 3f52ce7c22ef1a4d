/**
 * The shape every language's catalogue must have: English's, with any strings. French is typed
 * `Messages<typeof en.x>`, so a key missing in French (or left over) fails typecheck; the key-parity
 * test checks the same at run time, placeholders included.
 */
export type Messages<T> = { readonly [K in keyof T]: T[K] extends string ? string : Messages<T[K]> };
