/** A small deterministic generator of choices (xorshift) for tests that compare two implementations on generated texts: a failure names its seed. */
export function generator(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
  return { pick: <T>(xs: readonly T[]): T => xs[next() % xs.length], int: (n: number) => next() % n };
}
