/** The first two initials of a name, for the avatar (spec 000 §1): "Ada Lovelace King" → "AL". */
export function initials(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => [...word][0]?.toUpperCase() ?? '')
    .join('');
}
