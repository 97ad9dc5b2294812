/**
 * `text` in slices of about `size` UTF-16 code units, for work over strings of megabytes
 * done a slice at a time (encoding, hashing, writing, sending): the UTF-8 copy of a whole
 * body is fresh memory whose page faults cost more than the work itself, where a slice's
 * copy reuses the same few hundred kilobytes. A slice never ends between the two halves of
 * a surrogate pair, which would encode as U+FFFD (or escape differently in JSON).
 */
export function* textSlices(text: string, size: number): Generator<string> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(at + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
    yield text.slice(at, end);
    at = end;
  }
}
