/**
 * Compile-time checks that a service's record and a contract schema's type describe the same
 * fields: `Expect<Matches<ServiceRecord, z.infer<typeof schema>>>` fails to type-check when a
 * field is added, removed or retyped on either side.
 */
export type Matches<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Accepts only `true`. */
export type Expect<T extends true> = T;
