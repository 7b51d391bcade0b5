/**
 * What each staff role may see and do in the owner's area (/admin): one table, read by every admin page and API call
 * (src/modules/admin). Viewers read; store managers run the shop (orders, inventory, customers, what the storefront
 * gathers, coupons, products and media); website managers build the site (its versions: look, restore; its products,
 * media, pages, design and settings); admins do everything, staff and the audit log included. The design and the
 * settings (store, shipping, tax, payments, e-mail, CAPTCHA…) are the admin's and the website manager's, as Shopify
 * keeps 'Themes' and 'Settings' apart from running the shop; coupons are also the store manager's (Shopify's
 * 'Discounts' is a permission of its own). Pages, blog posts, collections and blocks: admins, website managers and
 * editors edit and publish them, draft editors save drafts of pages and posts ('pages.draft': src/core/publishing.ts
 * decides which statuses), the other roles that enter /admin look. Restoring a
 * version is the admin's and the website manager's; whoever else enters /admin (viewer, store manager) may look at the
 * versions and the settings — the site they see anyway. Roles not named here do not enter /admin.
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
  'versions.read',
  'versions.restore',
  'products.read',
  'products.edit',
  'media.read',
  'media.edit',
  // Pages, collections and blocks (issue 26): look at them and preview a draft; save a change.
  'pages.read',
  'pages.edit',
  // The site's look and settings (issue 26: /admin/design, /admin/settings).
  'design.edit',
  'settings.read',
  'settings.edit',
  'coupons.edit',
  // Drafts of pages and blog posts (issue 26, src/core/publishing.ts): save them as Draft or Needs Review. Publishing
  // (and scheduling) them is 'pages.edit'.
  'pages.draft',
] as const;
export type StaffPermission = (typeof STAFF_PERMISSIONS)[number];

const READ: readonly StaffPermission[] = [
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
];

/** Running the shop day to day: its orders, stock, customers, what the storefront gathers, the sales report. */
const SHOP_OPERATIONS: readonly StaffPermission[] = [
  'orders.read',
  'orders.fulfil',
  'orders.refund',
  'inventory.read',
  'inventory.edit',
  'customers.read',
  'gatherings.read',
  'gatherings.edit',
  'report.read',
];

/** What only an admin does: who the staff are, and the log of what everyone did. */
const ADMIN_ONLY: readonly StaffPermission[] = ['staff.manage', 'audit.read'];

/** Every permission but `excluded`: a role that does everything of a kind gets each new permission of it too. */
const everythingBut = (...excluded: readonly (readonly StaffPermission[])[]): readonly StaffPermission[] =>
  STAFF_PERMISSIONS.filter((p) => !excluded.some((list) => list.includes(p)));

export const STAFF_ACCESS: Readonly<Partial<Record<ContributorRole, readonly StaffPermission[]>>> = {
  [ContributorRole.ADMIN]: STAFF_PERMISSIONS,
  [ContributorRole.STORE_MANAGER]: [
    ...READ,
    'orders.fulfil',
    'orders.refund',
    'inventory.edit',
    'gatherings.edit',
    // The products and their images (issue 26).
    'products.edit',
    'media.edit',
    // Discounts are the shop's daily work (Shopify's 'Discounts' permission is apart from 'Settings'); the rest of the
    // settings (payments, shipping, tax) stay with those who set up the site.
    'coupons.edit',
  ],
  [ContributorRole.REPORTING]: ['report.read'],
  [ContributorRole.VIEWER]: READ,
  // Issue 26: "admin and website manager everything" of building the site — its versions (and restoring one),
  // products, media, pages and posts (publishing them too), design, settings and coupons, and whatever site-building
  // permission comes next — but not the shop's daily work (orders, stock, customers: the store manager's) nor the
  // staff and the audit log.
  [ContributorRole.WEBSITE_MANAGER]: everythingBut(SHOP_OPERATIONS, ADMIN_ONLY),
  // Spec §3's editors build pages and posts. A draft editor saves drafts only (src/core/publishing.ts): Draft or Needs
  // Review, of pages and posts that are not live.
  [ContributorRole.EDITOR]: ['pages.read', 'pages.edit', 'pages.draft'],
  [ContributorRole.DRAFT_EDITOR]: ['pages.read', 'pages.draft'],
};

/**
 * What each role that enters /admin may do, in the words the staff page and `vitrine users` show beside the role
 * (the table above, said for an owner choosing a role).
 */
export const STAFF_ROLE_DESCRIPTIONS: Readonly<Partial<Record<ContributorRole, string>>> = {
  [ContributorRole.ADMIN]: 'Everything, including the staff and the audit log.',
  [ContributorRole.WEBSITE_MANAGER]:
    'Builds the whole site: pages, products, images, design, settings, coupons, and restores earlier versions. Not the orders, stock, customers or staff.',
  [ContributorRole.STORE_MANAGER]:
    'Runs the shop: orders, refunds, stock, customers, sign-ups, products, images and coupons; looks at the pages and settings.',
  [ContributorRole.EDITOR]: 'Edits and publishes the pages, their blocks and the blog posts; nothing else.',
  [ContributorRole.DRAFT_EDITOR]:
    'Writes drafts of pages and posts and sends them for review (Draft, Needs Review), but cannot publish them.',
  [ContributorRole.VIEWER]:
    'Looks at the orders, stock, customers, report, products, pages, settings and versions; changes nothing.',
  [ContributorRole.REPORTING]: 'Sees the sales report; nothing else.',
};

/** What a staff role may do, in words ('' for a role that does not enter /admin). */
export const staffRoleDescription = (role: number): string => STAFF_ROLE_DESCRIPTIONS[role as ContributorRole] ?? '';

/** Whether a staff member of `role` may do `permission`. */
export const staffCan = (role: number, permission: StaffPermission): boolean =>
  (STAFF_ACCESS[role as ContributorRole] ?? []).includes(permission);

/** Whether `role` enters the owner's area at all (it may do at least one thing there). */
export const entersAdmin = (role: number): boolean => (STAFF_ACCESS[role as ContributorRole] ?? []).length > 0;
