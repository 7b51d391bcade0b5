import { describe, expect, it } from 'vitest';
import { CONTRIBUTOR_ROLES, ContributorRole } from './enums';
import { isTrackedSiteUser, parseRole, ROLE_NAMES, roleName, STORE_ROLES } from './siteUserRoles';

describe('contributor roles by name (§3)', () => {
  it('names each §3 role in lower-case words joined by hyphens', () => {
    expect(Object.keys(ROLE_NAMES)).toHaveLength(CONTRIBUTOR_ROLES.length);
    expect(ROLE_NAMES['store-manager']).toBe(8);
    expect(ROLE_NAMES['scheduling-viewer']).toBe(12);
    expect(roleName(ContributorRole.ADMIN)).toBe('admin');
    expect(roleName(ContributorRole.STORE_MANAGER)).toBe('store-manager');
    expect(roleName(ContributorRole.DRAFT_EDITOR)).toBe('draft-editor');
    // 5 is no §3 role (the list skips it): its number is shown.
    expect(roleName(5)).toBe('role 5');
  });

  it('reads a role as the CLI takes it: its name in any case, with spaces or underscores, or its number', () => {
    expect(parseRole('store-manager')).toBe(ContributorRole.STORE_MANAGER);
    expect(parseRole(' Store Manager ')).toBe(ContributorRole.STORE_MANAGER);
    expect(parseRole('STORE_MANAGER')).toBe(ContributorRole.STORE_MANAGER);
    expect(parseRole('8')).toBe(ContributorRole.STORE_MANAGER);
    expect(parseRole('16')).toBe(ContributorRole.DRAFT_EDITOR);
    expect(parseRole('5')).toBeUndefined();
    expect(parseRole('108')).toBeUndefined();
    expect(parseRole('owner')).toBeUndefined();
    expect(parseRole('')).toBeUndefined();
  });

  it('lets admins and store managers read and send restock notifications (the account area)', () => {
    expect(STORE_ROLES.map(roleName)).toEqual(['admin', 'store-manager']);
  });

  it('tracks a signed-in site user in the census only when viewer-only (§6)', () => {
    expect(isTrackedSiteUser(ContributorRole.VIEWER)).toBe(true);
    expect(CONTRIBUTOR_ROLES.filter(isTrackedSiteUser)).toEqual([ContributorRole.VIEWER]);
  });
});
