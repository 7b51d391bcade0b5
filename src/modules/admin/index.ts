/**
 * The owner's area (/admin): who may do what (staff and their permissions), the page frame and its answers, the
 * audit log. The sections (orders, inventory …) live in their own modules and use this module's helpers.
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export { currentStaff, notAllowedMessage, requireStaff, type Staff } from './access';
export { backTo, doneOf, withDone } from './backPath';
export { AdminPages, type AdminView, type AdminVisit } from './adminPage';
export { COMMAND_ACTOR, listAudit, recordAudit, type Actor, type AuditEntry, type AuditRecord } from './audit';
export { ADMIN_PATH, ADMIN_SECTIONS, type AdminSection } from './sections';
export type { AuditLogRow } from './tables';
export type { HomeFigures, SalesPeriod } from './home';
