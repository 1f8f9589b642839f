import { createHash } from 'node:crypto';

const PALETTE = ['#1565c0', '#2e7d32', '#6a1b9a', '#c62828', '#00838f', '#ef6c00', '#4527a0', '#37474f'];

/** The first two initials of a name ("Ada Admin" → "AA", "operator" → "OP"). */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length >= 2 ? `${words[0]![0]}${words[1]![0]}` : (words[0] ?? '?').slice(0, 2);
  return letters.toUpperCase();
}

/** A round avatar with the initials on a colour chosen stably from the user id. */
export function avatarSvg(name: string, seed: string): string {
  const colour = PALETTE[createHash('sha256').update(seed).digest()[0]! % PALETTE.length];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><circle cx="48" cy="48" r="48" fill="${colour}"/><text x="48" y="58" font-family="Arial, Helvetica, sans-serif" font-size="34" font-weight="600" fill="#ffffff" text-anchor="middle">${initials(name).replace(/[<>&"']/g, '')}</text></svg>`;
}
