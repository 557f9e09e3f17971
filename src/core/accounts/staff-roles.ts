// Staff role assignments (POST /v1/firm-control/staff/roles/assign and /remove, docs/api.md#shapes): a firm's
// staff members hold RBAC roles by name. Assigning a role the member already holds answers the same role_id;
// removing needs the role_id an assignment answered. Roles are recorded here; the sandbox does not act on them.
import { Type } from 'typebox';
import type { IdGenerator } from '../ids.js';
import { CommandRefusal } from '../outcome.js';
import { parseBody } from '../validation/request-body.js';
import { Id } from '../shapes/common.js';
import type { Provisioning } from './provisioning.js';
import { declareSnapshot } from '../snapshot/snapshot-fields.js';

export const STAFF_ROLES = ['owner', 'operator', 'risk_manager', 'support', 'viewer'] as const;
export const AssignStaffRoleBody = Type.Object(
  {
    user_id: Id,
    role_name: Type.Union(
      STAFF_ROLES.map((role) => Type.Literal(role)),
      { description: `one of ${STAFF_ROLES.join(', ')}` },
    ),
  },
  { additionalProperties: false },
);
export const RemoveStaffRoleBody = Type.Object({ user_id: Id, role_id: Id }, { additionalProperties: false });

interface RoleAssignment {
  readonly roleId: string;
  readonly firmId: string;
  readonly userId: string;
  readonly roleName: string;
}

export class StaffRoles {
  private readonly byId = new Map<string, RoleAssignment>();

  constructor(private readonly provisioning: Provisioning) {}

  assign(firmId: string, body: unknown, ids: IdGenerator): { status: 'ok'; role_id: string } {
    const raw = parseBody(AssignStaffRoleBody, body);
    this.staffMember(firmId, raw.user_id);
    for (const held of this.byId.values())
      if (held.firmId === firmId && held.userId === raw.user_id && held.roleName === raw.role_name)
        return { status: 'ok', role_id: held.roleId };
    const roleId = ids.nextUuid();
    this.byId.set(roleId, { roleId, firmId, userId: raw.user_id, roleName: raw.role_name });
    return { status: 'ok', role_id: roleId };
  }

  remove(firmId: string, body: unknown): { status: 'ok' } {
    const raw = parseBody(RemoveStaffRoleBody, body);
    this.staffMember(firmId, raw.user_id);
    const held = this.byId.get(raw.role_id);
    if (!held || held.firmId !== firmId || held.userId !== raw.user_id)
      throw new CommandRefusal(404, 'role_not_found', `user ${raw.user_id} holds no role assignment ${raw.role_id}`);
    this.byId.delete(raw.role_id);
    return { status: 'ok' };
  }

  /** The user must be a staff member of the firm (404 `user_not_found` otherwise, as for another firm's user). */
  private staffMember(firmId: string, userId: string): void {
    const user = this.provisioning.findUser(userId);
    if (!user || user.firmId !== firmId || user.kind !== 'staff')
      throw new CommandRefusal(404, 'user_not_found', `user ${userId} is not a staff member of this firm`);
  }
}

declareSnapshot(StaffRoles, {
  kept: ['provisioning', 'byId'],
  skipped: [],
});
