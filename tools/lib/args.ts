/** `--name value` from the command line, or undefined. */
export function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

export function numberArg(name: string, fallback: number): number {
  const value = argValue(name);
  return value === undefined ? fallback : Number(value);
}
