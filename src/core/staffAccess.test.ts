import { describe, expect, it } from 'vitest';
import { CONTRIBUTOR_ROLES, ContributorRole } from './enums';
import { entersAdmin, STAFF_PERMISSIONS, staffCan, staffRoleDescription, type StaffPermission } from './staffAccess';

const can = (role: ContributorRole) => STAFF_PERMISSIONS.filter((p) => staffCan(role, p));

describe('what each staff role may do at /admin', () => {
  it('gives the admin everything', () => {
    expect(can(ContributorRole.ADMIN)).toEqual([...STAFF_PERMISSIONS]);
  });

  it('lets a store manager run the shop but not manage staff or read the audit log', () => {
    const expected: StaffPermission[] = [
      'orders.read',
      'orders.fulfil',
      'orders.refund',
      'inventory.read',
      'inventory.edit',
      'customers.read',
      'gatherings.read',
      'gatherings.edit',
      'report.read',
      'versions.read',
      'products.read',
      'products.edit',
      'media.read',
      'media.edit',
      'pages.read',
      'settings.read',
      'coupons.edit',
    ];
    expect(can(ContributorRole.STORE_MANAGER)).toEqual(expected);
    expect(staffCan(ContributorRole.STORE_MANAGER, 'settings.edit')).toBe(false);
    expect(staffCan(ContributorRole.STORE_MANAGER, 'design.edit')).toBe(false);
  });

  it('lets a viewer read and change nothing', () => {
    expect(can(ContributorRole.VIEWER)).toEqual([
      'orders.read',
      'inventory.read',
      'customers.read',
      'gatherings.read',
      'report.read',
      'versions.read',
      'products.read',
      'media.read',
      'pages.read',
      'settings.read',
    ]);
    expect(staffCan(ContributorRole.VIEWER, 'orders.refund')).toBe(false);
    expect(staffCan(ContributorRole.VIEWER, 'products.edit')).toBe(false);
    expect(staffCan(ContributorRole.VIEWER, 'media.edit')).toBe(false);
    expect(staffCan(ContributorRole.VIEWER, 'pages.edit')).toBe(false);
    expect(staffCan(ContributorRole.VIEWER, 'settings.edit')).toBe(false);
    expect(staffCan(ContributorRole.VIEWER, 'design.edit')).toBe(false);
    expect(staffCan(ContributorRole.VIEWER, 'versions.restore')).toBe(false);
  });

  it('lets a website manager do everything but the shop’s daily work, the staff and the audit log', () => {
    expect(can(ContributorRole.WEBSITE_MANAGER)).toEqual([
      'versions.read',
      'versions.restore',
      'products.read',
      'products.edit',
      'media.read',
      'media.edit',
      'pages.read',
      'pages.edit',
      'design.edit',
      'settings.read',
      'settings.edit',
      'coupons.edit',
      'pages.draft',
    ]);
    // What the admin may do and the website manager may not: exactly the shop's operations and the staff.
    expect(STAFF_PERMISSIONS.filter((p) => !staffCan(ContributorRole.WEBSITE_MANAGER, p))).toEqual([
      'orders.read',
      'orders.fulfil',
      'orders.refund',
      'inventory.read',
      'inventory.edit',
      'customers.read',
      'gatherings.read',
      'gatherings.edit',
      'report.read',
      'staff.manage',
      'audit.read',
    ]);
  });

  it('lets an editor edit and publish pages and posts, and a draft editor save drafts of them', () => {
    expect(can(ContributorRole.EDITOR)).toEqual(['pages.read', 'pages.edit', 'pages.draft']);
    expect(can(ContributorRole.DRAFT_EDITOR)).toEqual(['pages.read', 'pages.draft']);
  });

  it('describes, in words, every role that enters /admin and no other', () => {
    for (const role of CONTRIBUTOR_ROLES) {
      if (entersAdmin(role)) expect(staffRoleDescription(role), `role ${role}`).toMatch(/^[A-Z].+\.$/);
      else expect(staffRoleDescription(role), `role ${role}`).toBe('');
    }
    expect(staffRoleDescription(ContributorRole.EDITOR)).toBe(
      'Edits and publishes the pages, their blocks and the blog posts; nothing else.',
    );
  });

  it('lets the reporting role read the report only', () => {
    expect(can(ContributorRole.REPORTING)).toEqual(['report.read']);
  });

  it('keeps every other role (and unknown numbers) out of /admin', () => {
    const inside = CONTRIBUTOR_ROLES.filter(entersAdmin);
    expect(inside.sort((a, b) => a - b)).toEqual([
      ContributorRole.ADMIN,
      ContributorRole.REPORTING,
      ContributorRole.EDITOR,
      ContributorRole.STORE_MANAGER,
      ContributorRole.VIEWER,
      ContributorRole.WEBSITE_MANAGER,
      ContributorRole.DRAFT_EDITOR,
    ]);
    expect(entersAdmin(5)).toBe(false);
    expect(staffCan(99, 'orders.read')).toBe(false);
  });
});
