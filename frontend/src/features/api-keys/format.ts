/** How a key is shown in the list: its stored prefix and an ellipsis (the rest is never known again). */
export function maskedKey(prefix: string): string {
  return `${prefix}…`;
}
