/**
 * The contributor roles of spec §3 by the names the CLI and docs use, and the rules of §6 that depend on them.
 */
import { ContributorRole } from './enums';

/** 'store-manager' → 8, …: each role's name in lower-case words joined by hyphens. */
export const ROLE_NAMES: Readonly<Record<string, ContributorRole>> = Object.fromEntries(
  Object.entries(ContributorRole).map(([key, value]) => [key.toLowerCase().replaceAll('_', '-'), value]),
);

export const roleName = (role: number): string =>
  Object.entries(ROLE_NAMES).find(([, value]) => value === role)?.[0] ?? `role ${role}`;

/** The role named `name` (a name of ROLE_NAMES or its number), or undefined. */
export function parseRole(name: string): ContributorRole | undefined {
  const key = name.trim().toLowerCase().replaceAll('_', '-').replaceAll(' ', '-');
  if (key in ROLE_NAMES) return ROLE_NAMES[key];
  const number = /^\d{1,2}$/.test(key) ? Number(key) : NaN;
  return Object.values(ROLE_NAMES).find((role) => role === number);
}

/** Who may read the restock sign-ups of the account area (shoppers' e-mails) and send the notifications (§3 roles). */
export const STORE_ROLES: readonly ContributorRole[] = [ContributorRole.ADMIN, ContributorRole.STORE_MANAGER];

/**
 * §6: a signed-in site user is tracked by the census only when viewer-only (treated as a visitor); owners, editors and
 * every other non-viewer account are not tracked.
 */
export const isTrackedSiteUser = (role: number): boolean => role === ContributorRole.VIEWER;
