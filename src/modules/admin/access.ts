/**
 * Who may do what in the owner's area: the signed-in site user of the request (src/modules/siteUsers), as staff with
 * the permissions of their role (src/core/staffAccess.ts). API routes call `requireStaff`: 401 'sign-in-required'
 * for nobody, 403 'role-not-allowed' for a role without the permission — never data.
 */
import type { FastifyRequest } from 'fastify';
import { roleName } from '../../core/siteUserRoles';
import { entersAdmin, staffCan, type StaffPermission } from '../../core/staffAccess';
import { ApiError } from '../../platform/http/errors';
import { currentSiteUser } from '../siteUsers';
import type { Actor } from './audit';

export interface Staff {
  id: string;
  siteId: string;
  email: string;
  role: number;
  /** The role's name ('store-manager'). */
  roleName: string;
  can(permission: StaffPermission): boolean;
  /** The staff member as the audit log names them. */
  actor: Actor;
}

export const staffFrom = (user: { id: string; siteId: string; email: string; role: number }): Staff => ({
  id: user.id,
  siteId: user.siteId,
  email: user.email,
  role: user.role,
  roleName: roleName(user.role),
  can: (permission) => staffCan(user.role, permission),
  actor: { id: user.id, email: user.email },
});

/** The request's signed-in staff member (any role that enters /admin), or null. */
export async function currentStaff(request: FastifyRequest): Promise<Staff | null> {
  const user = await currentSiteUser(request);
  return user && entersAdmin(user.role) ? staffFrom(user) : null;
}

/** The message of a refused permission: says who they are and what it needs. */
export const notAllowedMessage = (role: number): string =>
  `Your account (${roleName(role)}) may not do this. Ask an admin of this site for access.`;

/**
 * The signed-in staff member, when their role has `permission` (null: any role that enters /admin); else the API
 * error (401 or 403).
 */
export async function requireStaff(request: FastifyRequest, permission: StaffPermission | null): Promise<Staff> {
  const user = await currentSiteUser(request);
  if (!user) throw new ApiError('sign-in-required', 'Please sign in to your account to do this.');
  const allowed = permission === null ? entersAdmin(user.role) : staffCan(user.role, permission);
  if (!allowed) throw new ApiError('role-not-allowed', notAllowedMessage(user.role));
  return staffFrom(user);
}
