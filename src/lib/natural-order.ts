/**
 * Compares two names in natural order: "page 2" before "page 10", letters case-folded the
 * way English readers sort them. One collator serves every comparison (`localeCompare` with
 * options builds one per call, which made sorting a 5,000-page tree the costliest part of
 * building it), and it is made on first use: creating it maps about 2.5 MB of ICU's data,
 * which a server that has sorted no names need not hold.
 */
let collator: Intl.Collator | undefined;

export function naturalOrder(a: string, b: string): number {
  return (collator ??= new Intl.Collator('en', { numeric: true })).compare(a, b);
}
