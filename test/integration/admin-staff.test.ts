/**
 * Staff at /admin on SQLite and PostgreSQL: an invitation (its e-mail in the outbox, the link that sets the password
 * and signs in, used once, expired), role changes and removal with their audit entries, the last admin kept, viewers
 * and store managers refused, sessions listed and revoked (that browser signed out), and the sign-in limit.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CRUMB_COOKIE, CRUMB_FIELD, CRUMB_HEADER } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { staffRoleDescription } from '../../src/core/staffAccess';
import { listAudit } from '../../src/modules/admin';
import { findSiteByHost } from '../../src/modules/site/sites';
import { SITE_USER_COOKIE } from '../../src/modules/siteUsers/siteUserSession';
import { INVITE_MESSAGES, inviteStaff, STAFF_MESSAGES } from '../../src/modules/siteUsers/staff';
import { ACCOUNT_TRIES, SIGN_IN_MESSAGES } from '../../src/modules/siteUsers/pages';
import { buildApp } from '../../src/server/app';
import { checkoutSite, seedSite, SHOP_HOST } from '../support/checkoutSite';
import { TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { addSiteUser, signIn, TEST_PASSWORD } from '../support/siteUsers';
import { vitrine } from '../support/cli';

const NEW_PASSWORD = 'a brand new password 42';
const LINK = /https?:\/\/[^\s"<>]+\/account\/invite\/([A-Za-z0-9_-]{43})/;

forEachEngine((engine, getDb, getFresh) => {
  let app: FastifyInstance;
  let siteId: string;
  let admin: string;
  let adminId: string;
  let manager: string;
  let viewer: string;

  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { host: SHOP_HOST, ...(cookie ? { cookie } : {}) } });
  const api = (method: 'POST' | 'DELETE', url: string, cookie: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: {
        host: SHOP_HOST,
        cookie,
        [CRUMB_HEADER]: TEST_CRUMB,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
  const form = (url: string, fields: Record<string, string>, cookie = `${CRUMB_COOKIE}=${TEST_CRUMB}`) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...fields, [CRUMB_FIELD]: TEST_CRUMB }).toString(),
    });
  const mailTo = async (to: string) =>
    getDb()
      .selectFrom('outbox')
      .select(['kind', 'subject', 'text_body as text', 'html_body as html'])
      .where('to_address', '=', to)
      .orderBy('created_at', 'desc')
      .execute();
  const tokenFor = async (to: string): Promise<string> => {
    const [mail] = await mailTo(to);
    const token = mail?.text?.match(LINK)?.[1];
    if (!token) throw new Error(`no invitation link to ${to}`);
    return token;
  };
  const userId = async (email: string) =>
    (
      await getDb()
        .selectFrom('site_users')
        .select('id')
        .where('site_id', '=', siteId)
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    await seedSite(getDb(), checkoutSite);
    siteId = (await findSiteByHost(getDb(), SHOP_HOST))!.id;
    app = await buildApp({ db: getDb(), engine, accountRoutes: { signInsPerMinute: 1_000_000 } });
    const owner = await addSiteUser(getDb(), SHOP_HOST, ContributorRole.ADMIN, 'owner@example.com');
    adminId = owner.id;
    admin = await signIn(app, SHOP_HOST, owner.email);
    manager = await signIn(
      app,
      SHOP_HOST,
      (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.STORE_MANAGER)).email,
    );
    viewer = await signIn(app, SHOP_HOST, (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.VIEWER)).email);
  });
  afterAll(async () => app?.close());

  it('refuses viewers and store managers on every staff page and call (403), and changes nothing', async () => {
    for (const cookie of [viewer, manager]) {
      const page = await get('/admin/staff', cookie);
      expect(page.statusCode).toBe(403);
      expect(page.body).toContain('may not do this. Ask an admin of this site for access.');
      expect(page.body).not.toContain('owner@example.com');
      expect((await get('/api/admin/staff', cookie)).statusCode).toBe(403);
      const invite = await api('POST', '/api/admin/staff/invites', cookie, { email: 'x@example.com', role: 'admin' });
      expect(invite.statusCode).toBe(403);
      expect(invite.json().code).toBe('role-not-allowed');
      expect((await api('POST', `/api/admin/staff/${adminId}/role`, cookie, { role: 'viewer' })).statusCode).toBe(403);
      expect((await api('DELETE', `/api/admin/staff/${adminId}`, cookie)).statusCode).toBe(403);
      expect((await form('/admin/staff/invite', { email: 'x@example.com', role: 'admin' }, cookie)).statusCode).toBe(
        403,
      );
      expect((await form(`/admin/staff/${adminId}/remove`, {}, cookie)).statusCode).toBe(403);
    }
    expect((await get('/admin/staff')).statusCode).toBe(303);
    expect((await get('/api/admin/staff')).statusCode).toBe(401);
    const invites = await getDb().selectFrom('staff_invites').select('email').where('site_id', '=', siteId).execute();
    expect(invites).toEqual([]);
    expect((await get('/admin', viewer)).body).not.toContain('href="/admin/staff"');
    expect((await get('/admin', admin)).body).toContain('href="/admin/staff"');
  });

  it('invites: the e-mail in the outbox, the link sets the password and signs in, then sign-in works; the link works once', async () => {
    const invited = await api('POST', '/api/admin/staff/invites', admin, {
      email: ' New.Person@Example.com ',
      role: 'store-manager',
    });
    expect(invited.statusCode).toBe(200);
    expect(invited.json()).toMatchObject({ email: 'new.person@example.com', role: ContributorRole.STORE_MANAGER });
    const [mail] = await mailTo('new.person@example.com');
    expect(mail).toMatchObject({ kind: 'staff-invite', subject: 'You are invited to the staff of Shop' });
    expect(mail!.text).toContain('owner@example.com invited you to help run Shop as store-manager.');
    const token = await tokenFor('new.person@example.com');
    // Only the token's hash is kept; the audit log holds neither.
    const stored = await getDb().selectFrom('staff_invites').selectAll().where('site_id', '=', siteId).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(token);
    const audit = await listAudit(getDb(), siteId);
    expect(audit.records[0]).toMatchObject({
      action: 'staff.invited',
      summary: 'Invited new.person@example.com as store-manager',
    });
    expect(JSON.stringify(audit.records)).not.toContain(token);

    const listed = (await get('/api/admin/staff', admin)).json();
    expect(listed.invites).toMatchObject([
      { email: 'new.person@example.com', roleName: 'store-manager', expired: false },
    ]);
    expect((await get('/admin/staff', admin)).body).toContain('new.person@example.com');

    const page = await get(`/account/invite/${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Set your password');
    expect(page.body).toContain('You will sign in with new.person@example.com.');
    const mismatch = await form(`/account/invite/${token}`, { password: NEW_PASSWORD, confirm: 'something else 123' });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.body).toContain(INVITE_MESSAGES.mismatch);
    const short = await form(`/account/invite/${token}`, { password: 'short', confirm: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.body).toContain(INVITE_MESSAGES.tooShort);

    const accepted = await form(`/account/invite/${token}`, { password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(accepted.statusCode).toBe(303);
    expect(accepted.headers.location).toBe('/admin');
    const session = accepted.cookies.find((c) => c.name === SITE_USER_COOKIE)!;
    expect(session.httpOnly).toBe(true);
    const home = await get('/admin', `${SITE_USER_COOKIE}=${session.value}`);
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Signed in as new.person@example.com (store-manager).');
    const hash = (
      await getDb()
        .selectFrom('site_users')
        .select('password_hash')
        .where('email', '=', 'new.person@example.com')
        .executeTakeFirstOrThrow()
    ).password_hash;
    expect(hash).toMatch(/^scrypt\$15\$8\$1\$/);

    const signedIn = await form('/account/sign-in', { email: 'new.person@example.com', password: NEW_PASSWORD });
    expect(signedIn.statusCode).toBe(303);

    const again = await get(`/account/invite/${token}`);
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain(INVITE_MESSAGES.used);
    const reuse = await form(`/account/invite/${token}`, {
      password: 'another password 99',
      confirm: 'another password 99',
    });
    expect(reuse.statusCode).toBe(410);
    expect(reuse.body).toContain(INVITE_MESSAGES.used);
    expect(
      (await form('/account/sign-in', { email: 'new.person@example.com', password: 'another password 99' })).statusCode,
    ).toBe(401);
    expect((await listAudit(getDb(), siteId)).records[0]).toMatchObject({
      action: 'staff.joined',
      summary: 'new.person@example.com accepted the invitation and joined as store-manager',
    });
    expect((await get('/account/invite/not-a-token')).statusCode).toBe(404);
  });

  it('refuses an expired link, and an e-mail that already has an account', async () => {
    const site = (await findSiteByHost(getDb(), SHOP_HOST))!;
    const invited = await inviteStaff(getDb(), {
      site,
      email: 'late@example.com',
      role: ContributorRole.VIEWER,
      actor: { command: true },
      origin: 'http://shop.test',
      now: new Date(Date.now() - 73 * 60 * 60 * 1000),
    });
    expect(invited.ok).toBe(true);
    const token = await tokenFor('late@example.com');
    const page = await get(`/account/invite/${token}`);
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain(INVITE_MESSAGES.expired);
    const post = await form(`/account/invite/${token}`, { password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(post.statusCode).toBe(410);
    expect(post.body).toContain(INVITE_MESSAGES.expired);
    expect(
      await getDb().selectFrom('site_users').select('id').where('email', '=', 'late@example.com').execute(),
    ).toEqual([]);
    const taken = await api('POST', '/api/admin/staff/invites', admin, { email: 'owner@example.com', role: 'viewer' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(
      'owner@example.com already has an account on this site (admin): change their role instead.',
    );
    const badRole = await api('POST', '/api/admin/staff/invites', admin, { email: 'a@example.com', role: 'moderator' });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().message).toBe(
      'role must be one of admin, website-manager, store-manager, editor, draft-editor, viewer, reporting.',
    );
    const noJs = await form('/admin/staff/invite', { email: 'not an e-mail', role: 'viewer' }, admin);
    expect(noJs.statusCode).toBe(422);
    expect(noJs.body).toContain('&#x27;not an e-mail&#x27; is not an e-mail address.');
  });

  it("invites the site's builders (website manager, editor, draft editor), shows what each role may do, and changes a role to one", async () => {
    const page = await get('/admin/staff', admin);
    expect(page.statusCode).toBe(200);
    for (const [value, description] of [
      ['website-manager', staffRoleDescription(ContributorRole.WEBSITE_MANAGER)],
      ['editor', 'Edits and publishes the pages, their blocks and the blog posts; nothing else.'],
      ['draft-editor', staffRoleDescription(ContributorRole.DRAFT_EDITOR)],
    ] as const) {
      expect(page.body).toContain(`<option value="${value}">${value}</option>`);
      expect(page.body).toContain(`<dt>${value}</dt><dd>${description.replaceAll("'", '&#x27;')}</dd>`);
    }
    const listed = await get('/api/admin/staff', admin);
    expect(listed.json().roles).toContainEqual({
      role: ContributorRole.EDITOR,
      name: 'editor',
      description: 'Edits and publishes the pages, their blocks and the blog posts; nothing else.',
    });

    const joinedAs = new Map<string, string>();
    for (const [role, number] of [
      ['website-manager', ContributorRole.WEBSITE_MANAGER],
      ['editor', ContributorRole.EDITOR],
      ['draft-editor', ContributorRole.DRAFT_EDITOR],
    ] as const) {
      const invited = await api('POST', '/api/admin/staff/invites', admin, { email: `${role}@example.com`, role });
      expect(invited.statusCode, invited.body).toBe(200);
      expect(invited.json()).toMatchObject({ email: `${role}@example.com`, role: number });
      const token = await tokenFor(`${role}@example.com`);
      const joined = await form(`/account/invite/${token}`, { password: NEW_PASSWORD, confirm: NEW_PASSWORD });
      expect(joined.statusCode).toBe(303);
      const session = joined.cookies.find((c) => c.name === SITE_USER_COOKIE)!;
      joinedAs.set(role, `${SITE_USER_COOKIE}=${session.value}; ${CRUMB_COOKIE}=${TEST_CRUMB}`);
    }
    const staff = (await get('/api/admin/staff', admin)).json().staff as { email: string; roleName: string }[];
    expect(
      staff.filter((m) => m.email.endsWith('editor@example.com') || m.email.startsWith('website-manager')),
    ).toEqual([
      expect.objectContaining({ email: 'draft-editor@example.com', roleName: 'draft-editor' }),
      expect.objectContaining({ email: 'editor@example.com', roleName: 'editor' }),
      expect.objectContaining({ email: 'website-manager@example.com', roleName: 'website-manager' }),
    ]);

    // What each may open: the editor the pages (and saves them), the draft editor the pages (its drafts), the website manager
    // builds the site but does not run the shop.
    const editor = joinedAs.get('editor')!;
    const draftEditor = joinedAs.get('draft-editor')!;
    const websiteManager = joinedAs.get('website-manager')!;
    const home = (await get('/admin', editor)).body;
    expect(home).toContain('href="/admin/pages"');
    for (const section of ['orders', 'products', 'settings', 'design', 'staff', 'versions'])
      expect(home).not.toContain(`href="/admin/${section}"`);
    expect((await get('/admin/pages', editor)).statusCode).toBe(200);
    expect((await get('/admin/pages', draftEditor)).statusCode).toBe(200);
    for (const path of ['/admin/orders', '/admin/settings', '/admin/staff', '/admin/products'])
      expect((await get(path, editor)).statusCode, path).toBe(403);
    for (const path of ['/admin/settings', '/admin/design', '/admin/versions', '/admin/products'])
      expect((await get(path, websiteManager)).statusCode, path).toBe(200);
    for (const path of ['/admin/orders', '/admin/inventory', '/admin/staff', '/admin/audit'])
      expect((await get(path, websiteManager)).statusCode, path).toBe(403);

    const id = await userId('draft-editor@example.com');
    const changed = await api('POST', `/api/admin/staff/${id}/role`, admin, { role: 'editor' });
    expect(changed.json()).toEqual({ email: 'draft-editor@example.com', before: 16, after: 4 });
    const audit = await listAudit(getDb(), siteId, { subject: { type: 'site-user', id } });
    expect(audit.records[0]).toMatchObject({
      action: 'staff.role-changed',
      summary: 'Changed the role of draft-editor@example.com from draft-editor to editor',
    });
  });

  it('invites without JavaScript: 303 back with the notice', async () => {
    const posted = await form('/admin/staff/invite', { email: 'nojs@example.com', role: 'viewer' }, admin);
    expect(posted.statusCode).toBe(303);
    const back = await get(posted.headers.location as string, admin);
    expect(back.body).toContain('Invited nojs@example.com as viewer. The e-mail with their link is on its way.');
    expect((await mailTo('nojs@example.com'))[0]?.kind).toBe('staff-invite');
  });

  it('changes a role and removes a member (their sessions end), each with its audit entry', async () => {
    const member = await addSiteUser(getDb(), SHOP_HOST, ContributorRole.VIEWER, 'member@example.com');
    const cookie = await signIn(app, SHOP_HOST, member.email);
    const changed = await api('POST', `/api/admin/staff/${member.id}/role`, admin, { role: 'store-manager' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ email: 'member@example.com', before: 10, after: 8 });
    expect((await get('/admin/inventory', cookie)).statusCode).toBe(200);
    const byForm = await form(`/admin/staff/${member.id}/role`, { role: 'viewer' }, admin);
    expect(byForm.statusCode).toBe(303);
    expect((await get(byForm.headers.location as string, admin)).body).toContain(
      'member@example.com is now viewer (was store-manager).',
    );
    const audit = await listAudit(getDb(), siteId, { subject: { type: 'site-user', id: member.id } });
    expect(audit.records.map((r) => [r.action, r.summary, r.before, r.after])).toEqual([
      [
        'staff.role-changed',
        'Changed the role of member@example.com from store-manager to viewer',
        { role: 'store-manager' },
        { role: 'viewer' },
      ],
      [
        'staff.role-changed',
        'Changed the role of member@example.com from viewer to store-manager',
        { role: 'viewer' },
        { role: 'store-manager' },
      ],
    ]);
    expect(audit.records[0]!.actor).toBe('owner@example.com');

    const removed = await form(`/admin/staff/${member.id}/remove`, {}, admin);
    expect(removed.statusCode).toBe(303);
    expect((await get(removed.headers.location as string, admin)).body).toContain(
      'Removed member@example.com from the staff; they are signed out.',
    );
    expect((await get('/admin', cookie)).statusCode).toBe(303);
    const after = await listAudit(getDb(), siteId, { subject: { type: 'site-user', id: member.id } });
    expect(after.records[0]).toMatchObject({
      action: 'staff.removed',
      summary: 'Removed member@example.com (viewer) from the staff; 1 session ended',
    });
    expect((await api('DELETE', `/api/admin/staff/${member.id}`, admin)).statusCode).toBe(404);
    expect(JSON.stringify(after.records)).not.toContain(TEST_PASSWORD);
  });

  it('keeps the last admin: cannot demote nor remove themselves, and is told why', async () => {
    const demote = await api('POST', `/api/admin/staff/${adminId}/role`, admin, { role: 'viewer' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toMatchObject({ code: 'staff-change-refused', message: STAFF_MESSAGES.lastAdminSelfDemote });
    const remove = await api('DELETE', `/api/admin/staff/${adminId}`, admin);
    expect(remove.statusCode).toBe(409);
    expect(remove.json().message).toBe(STAFF_MESSAGES.lastAdminSelfRemove);
    const page = await form(`/admin/staff/${adminId}/remove`, {}, admin);
    expect(page.statusCode).toBe(409);
    expect(page.body).toContain(STAFF_MESSAGES.lastAdminSelfRemove.replace(':', ':'));
    expect((await get('/admin/staff', admin)).statusCode).toBe(200);

    // With a second admin, either may step down, but not both at once.
    const second = await addSiteUser(getDb(), SHOP_HOST, ContributorRole.ADMIN, 'second-admin@example.com');
    const secondCookie = await signIn(app, SHOP_HOST, second.email);
    const both = await Promise.all([
      api('POST', `/api/admin/staff/${adminId}/role`, admin, { role: 'viewer' }),
      api('POST', `/api/admin/staff/${second.id}/role`, secondCookie, { role: 'viewer' }),
    ]);
    expect(both.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const admins = await getDb()
      .selectFrom('site_users')
      .select('id')
      .where('site_id', '=', siteId)
      .where('role', '=', ContributorRole.ADMIN)
      .execute();
    expect(admins).toHaveLength(1);
    // Back as it was: the owner is the only admin.
    await getDb().updateTable('site_users').set({ role: ContributorRole.ADMIN }).where('id', '=', adminId).execute();
    await getDb().updateTable('site_users').set({ role: ContributorRole.VIEWER }).where('id', '=', second.id).execute();
  });

  it('lists sessions (started, last seen, browser) and revokes one: that browser is signed out, the other not', async () => {
    const user = await addSiteUser(getDb(), SHOP_HOST, ContributorRole.VIEWER, 'two-browsers@example.com');
    const signInWith = async (agent: string) => {
      const answer = await app.inject({
        method: 'POST',
        url: '/account/sign-in',
        headers: {
          host: SHOP_HOST,
          'user-agent': agent,
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}`,
        },
        payload: new URLSearchParams({
          email: user.email,
          password: TEST_PASSWORD,
          [CRUMB_FIELD]: TEST_CRUMB,
        }).toString(),
      });
      return `${SITE_USER_COOKIE}=${answer.cookies.find((c) => c.name === SITE_USER_COOKIE)!.value}`;
    };
    const laptop = await signInWith('Laptop Browser/1.0');
    const phone = await signInWith('Phone Browser/2.0');
    const listed = (await get('/api/admin/staff', admin)).json();
    const mine = listed.sessions.filter((s: { userId: string }) => s.userId === user.id);
    expect(mine.map((s: { userAgent: string }) => s.userAgent).sort()).toEqual([
      'Laptop Browser/1.0',
      'Phone Browser/2.0',
    ]);
    expect(mine[0].startedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(mine[0].lastSeenAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const page = (await get('/admin/staff', admin)).body;
    expect(page).toContain('Phone Browser/2.0');
    const phoneSession = mine.find((s: { userAgent: string }) => s.userAgent === 'Phone Browser/2.0');
    const revoked = await form(`/admin/staff/${user.id}/sessions/${phoneSession.id}/revoke`, {}, admin);
    expect(revoked.statusCode).toBe(303);
    expect((await get(revoked.headers.location as string, admin)).body).toContain(
      'Ended the session of two-browsers@example.com: that browser is signed out.',
    );
    expect((await get('/admin', phone)).statusCode).toBe(303);
    expect((await get('/admin', laptop)).statusCode).toBe(200);
    expect((await api('DELETE', `/api/admin/staff/${user.id}/sessions/${phoneSession.id}`, admin)).statusCode).toBe(
      404,
    );
    const all = await api('DELETE', `/api/admin/staff/${user.id}/sessions`, admin);
    expect(all.json()).toEqual({ email: 'two-browsers@example.com', ended: 1 });
    expect((await get('/admin', laptop)).statusCode).toBe(303);
    const audit = await listAudit(getDb(), siteId, { subject: { type: 'site-user', id: await userId(user.email) } });
    expect(audit.records.map((r) => r.summary)).toEqual([
      'Signed two-browsers@example.com out everywhere (1 session ended)',
      'Ended a session of two-browsers@example.com',
    ]);
  });

  it(`limits sign-in tries per account: after ${ACCOUNT_TRIES} wrong passwords, 429 with a clear message`, async () => {
    const user = await addSiteUser(getDb(), SHOP_HOST, ContributorRole.VIEWER, 'guessed@example.com');
    for (let i = 0; i < ACCOUNT_TRIES; i++)
      expect((await form('/account/sign-in', { email: user.email, password: `wrong guess ${i}` })).statusCode).toBe(
        401,
      );
    const blocked = await form('/account/sign-in', { email: user.email, password: TEST_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.body).toContain(SIGN_IN_MESSAGES.tooMany);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('vitrine users invite, role, sessions and revoke: the same changes, audited as the command', async () => {
    const run = (...args: string[]) => vitrine(args, getFresh().url);
    const invited = await run(
      'users',
      'invite',
      '--email',
      'cli-invite@example.com',
      '--role',
      'viewer',
      '--site',
      'shop',
    );
    expect(invited.err).toEqual([]);
    expect(invited.code).toBe(0);
    expect(invited.out[0]).toMatch(
      /^Invited cli-invite@example.com \(viewer\) to site shop; their link works until \d{4}-\d\d-\d\d \d\d:\d\d UTC\. The e-mail is in the outbox \('vitrine outbox'\)\.$/,
    );
    const [mail] = await mailTo('cli-invite@example.com');
    expect(mail!.text).toContain('You are invited to help run Shop as viewer.');
    expect(mail!.text).toMatch(/https:\/\/shop\.test\/account\/invite\/[A-Za-z0-9_-]{43}/);
    const badRole = await run('users', 'invite', '--email', 'x@example.com', '--role', 'commenter');
    expect(badRole.code).toBe(2);
    expect(badRole.err.join('\n')).toContain(
      "option '--role' must be one of admin, website-manager, store-manager, editor, draft-editor, viewer, reporting, not 'commenter'",
    );

    const added = await run('users', 'add', '--email', 'cli-editor@example.com', '--role', 'editor', '--site', 'shop');
    expect(added.code).toBe(0);
    expect(added.out[0]).toBe('Added cli-editor@example.com (editor) to site shop. They sign in at /account/sign-in.');
    const addedId = await userId('cli-editor@example.com');
    expect((await listAudit(getDb(), siteId, { subject: { type: 'site-user', id: addedId } })).records).toEqual([
      expect.objectContaining({
        action: 'staff.added',
        actor: 'vitrine command',
        summary: 'Added cli-editor@example.com as editor',
        after: { email: 'cli-editor@example.com', role: 'editor' },
      }),
    ]);
    const help = await run('users', 'add', '--help');
    expect(help.out).toContain('What each staff role may do at /admin:');
    expect(help.out).toContain('editor: Edits and publishes the pages, their blocks and the blog posts; nothing else.');

    const clerk = await addSiteUser(getDb(), SHOP_HOST, ContributorRole.VIEWER, 'cli-clerk@example.com');
    const promoted = await run('users', 'role', '--email', 'CLI-Clerk@example.com', '--role', 'store-manager');
    expect(promoted.out).toEqual(['cli-clerk@example.com is now store-manager (was viewer).']);
    const last = await run('users', 'role', '--email', 'owner@example.com', '--role', 'viewer');
    expect(last.code).toBe(1);
    expect(last.err.join('\n')).toContain(STAFF_MESSAGES.lastAdmin('owner@example.com'));
    const lastRemove = await run('users', 'remove', '--email', 'owner@example.com');
    expect(lastRemove.code).toBe(1);

    await signIn(app, SHOP_HOST, clerk.email);
    const sessions = await run('users', 'sessions', '--email', clerk.email);
    expect(sessions.code).toBe(0);
    expect(sessions.out[0]).toMatch(/^SESSION +E-MAIL +STARTED \(UTC\) +LAST SEEN \(UTC\) +BROWSER/);
    expect(sessions.out).toHaveLength(2);
    const sessionId = sessions.out[1]!.split(/ +/)[0]!;
    const revoked = await run('users', 'revoke', '--email', clerk.email, '--session', sessionId);
    expect(revoked.out).toEqual([`Ended session ${sessionId} of cli-clerk@example.com.`]);
    expect((await run('users', 'sessions', '--email', clerk.email)).out).toEqual(['Nobody is signed in.']);
    const audit = await listAudit(getDb(), siteId, { subject: { type: 'site-user', id: clerk.id } });
    expect(audit.records.map((r) => [r.actor, r.action])).toEqual([
      ['vitrine command', 'staff.sessions-revoked'],
      ['vitrine command', 'staff.role-changed'],
    ]);
  });
});
