/**
 * The owner's area's sections, in the side navigation's order; each shows only to staff whose role has its permission
 * (src/core/staffAccess.ts). A module that adds a section to /admin adds its line here.
 */
import type { StaffPermission } from '../../core/staffAccess';

export interface AdminSection {
  path: string;
  label: string;
  /** null: every staff member (the home page). */
  permission: StaffPermission | null;
}

export const ADMIN_PATH = '/admin';

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { path: ADMIN_PATH, label: 'Home', permission: null },
  { path: '/admin/orders', label: 'Orders', permission: 'orders.read' },
  { path: '/admin/inventory', label: 'Inventory', permission: 'inventory.read' },
  { path: '/admin/customers', label: 'Customers', permission: 'customers.read' },
  { path: '/admin/gathered', label: 'Gathered', permission: 'gatherings.read' },
  { path: '/admin/report', label: 'Report', permission: 'report.read' },
  { path: '/admin/products', label: 'Products', permission: 'products.read' },
  { path: '/admin/media', label: 'Media', permission: 'media.read' },
  { path: '/admin/pages', label: 'Pages', permission: 'pages.read' },
  { path: '/admin/posts', label: 'Blog posts', permission: 'pages.read' },
  { path: '/admin/design', label: 'Design', permission: 'design.edit' },
  { path: '/admin/settings', label: 'Settings', permission: 'settings.read' },
  { path: '/admin/versions', label: 'Versions', permission: 'versions.read' },
  { path: '/admin/staff', label: 'Staff', permission: 'staff.manage' },
  { path: '/admin/audit', label: 'Audit log', permission: 'audit.read' },
];
