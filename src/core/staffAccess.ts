/**
 * What each staff role may see and do in the owner's area (/admin): one table, read by every admin page and API call
 * (src/modules/admin). Viewers read; store managers run the shop (orders, inventory, customers, what the storefront
 * gathers); admins do everything, staff and the audit log included. Roles not named here do not enter /admin.
 */
import { ContributorRole } from './enums';

export const STAFF_PERMISSIONS = [
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
] as const;
export type StaffPermission = (typeof STAFF_PERMISSIONS)[number];

const READ: readonly StaffPermission[] = [
  'orders.read',
  'inventory.read',
  'customers.read',
  'gatherings.read',
  'report.read',
];

export const STAFF_ACCESS: Readonly<Partial<Record<ContributorRole, readonly StaffPermission[]>>> = {
  [ContributorRole.ADMIN]: STAFF_PERMISSIONS,
  [ContributorRole.STORE_MANAGER]: [...READ, 'orders.fulfil', 'orders.refund', 'inventory.edit', 'gatherings.edit'],
  [ContributorRole.REPORTING]: ['report.read'],
  [ContributorRole.VIEWER]: READ,
};

/** Whether a staff member of `role` may do `permission`. */
export const staffCan = (role: number, permission: StaffPermission): boolean =>
  (STAFF_ACCESS[role as ContributorRole] ?? []).includes(permission);

/** Whether `role` enters the owner's area at all (it may do at least one thing there). */
export const entersAdmin = (role: number): boolean => (STAFF_ACCESS[role as ContributorRole] ?? []).length > 0;
