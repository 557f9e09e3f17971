// The named schemas of the OpenAPI document, `components/schemas` (docs/api.md#the-openapi-document): the public
// shapes (docs/api.md#shapes), their pages, the request bodies and the error envelope, each under the name a client
// generator gives its type. These are the runtime TypeBox schemas themselves; lift-components.ts finds where the
// generated document repeats one and puts a `$ref` there instead. The envelope is `ErrorEnvelope`, not `Error`: a
// generated `Error` type would shadow the global one in the client's code. The request bodies with rules a flat
// schema cannot say are shown as a `oneOf` of their forms (request-forms.ts).
import type { TSchema } from 'typebox';
import { AssignStaffRoleBody, RemoveStaffRoleBody } from '../../core/accounts/staff-roles.js';
import { ProvisionAccountsBody } from '../../core/accounts/provisioning-request.js';
import {
  AdjustBody,
  DailyLossTriggerBody,
  LockoutBody,
  MaxLossLimitBody,
  OfferingBody,
  ReanchorBody,
} from '../../core/kernel/write/firm-control-bodies.js';
import { LinkOcoBody, ModifyOrderBody, OcoCompanionBody, PlaceOrderBody } from '../../core/orders/order-request.js';
import {
  AccountRecordShape,
  AccountStatusShape,
  AdjustmentShape,
  BalanceObjectShape,
  BalanceShape,
  DrawdownModeShape,
  LockReasonShape,
  ProvisionResultShape,
  ReplaceResultShape,
  RiskStateReadShape,
  RiskStateShape,
} from '../../core/shapes/account.js';
import {
  ErrorShape,
  FieldDetailShape,
  Id,
  ItemsOf,
  Money,
  PageOf,
  Price,
  Side,
  TimeMs,
  TradeDate,
} from '../../core/shapes/common.js';
import { FillShape, LotShape, TradeLotsShape, TradeShape } from '../../core/shapes/fill.js';
import {
  CancelAllResultShape,
  DailyLossTriggerResultShape,
  FlattenResultShape,
  OfferingsShape,
  ProductFamilyShape,
  ReanchorResultShape,
  StaffRoleAssignedShape,
  StaffRoleRemovedShape,
} from '../../core/shapes/firm-control.js';
import {
  OcoGroupShape,
  OrderShape,
  OrderStatesShape,
  OrderStatusShape,
  OrderTypeShape,
  StatusRecordShape,
  TimeInForceShape,
} from '../../core/shapes/order.js';
import { DailyPositionShape, PositionShape } from '../../core/shapes/position.js';
import { StatsShape } from '../../core/shapes/stats.js';
import {
  AdvanceBody,
  FaultBody,
  PrintsBody,
  SandboxClockShape,
  SessionExportShape,
} from '../routes/sandbox-control.js';
import { FORM_COMPONENTS } from './request-forms.js';

export const COMPONENT_SCHEMAS: Readonly<Record<string, TSchema>> = {
  ErrorEnvelope: ErrorShape,
  FieldDetail: FieldDetailShape,

  Id,
  Money,
  Price,
  TimeMs,
  TradeDate,
  Side,

  OrderType: OrderTypeShape,
  TimeInForce: TimeInForceShape,
  OrderStatus: OrderStatusShape,
  Order: OrderShape,
  OrderPage: PageOf(OrderShape),
  StatusRecord: StatusRecordShape,
  OrderStates: OrderStatesShape,
  OcoGroup: OcoGroupShape,

  Fill: FillShape,
  FillPage: PageOf(FillShape),
  Trade: TradeShape,
  TradePage: PageOf(TradeShape),
  Lot: LotShape,
  TradeLots: TradeLotsShape,

  Position: PositionShape,
  PositionPage: PageOf(PositionShape),
  DailyPosition: DailyPositionShape,
  DailyPositions: ItemsOf(DailyPositionShape),
  Stats: StatsShape,

  Balance: BalanceShape,
  BalancePage: PageOf(BalanceShape),
  BalanceObject: BalanceObjectShape,
  Adjustment: AdjustmentShape,
  AdjustmentPage: PageOf(AdjustmentShape),

  DrawdownMode: DrawdownModeShape,
  AccountStatus: AccountStatusShape,
  LockReason: LockReasonShape,
  RiskState: RiskStateShape,
  RiskStateRead: RiskStateReadShape,
  Account: AccountRecordShape,
  AccountPage: PageOf(AccountRecordShape),
  ProvisionResult: ProvisionResultShape,
  ReplaceResult: ReplaceResultShape,

  DailyLossTriggerResult: DailyLossTriggerResultShape,
  ReanchorResult: ReanchorResultShape,
  FlattenResult: FlattenResultShape,
  CancelAllResult: CancelAllResultShape,
  ProductFamily: ProductFamilyShape,
  Offerings: OfferingsShape,
  StaffRoleAssigned: StaffRoleAssignedShape,
  StaffRoleRemoved: StaffRoleRemovedShape,

  Clock: SandboxClockShape,
  SessionExport: SessionExportShape,

  PlaceOrderRequest: PlaceOrderBody,
  ModifyOrderRequest: ModifyOrderBody,
  LinkOcoRequest: LinkOcoBody,
  OcoCompanionRequest: OcoCompanionBody,
  DailyLossTriggerRequest: DailyLossTriggerBody,
  ReanchorRequest: ReanchorBody,
  AdjustRequest: AdjustBody,
  LockoutRequest: LockoutBody,
  MaxLossLimitRequest: MaxLossLimitBody,
  OfferingRequest: OfferingBody,
  AssignStaffRoleRequest: AssignStaffRoleBody,
  RemoveStaffRoleRequest: RemoveStaffRoleBody,
  ProvisionAccountsRequest: ProvisionAccountsBody,
  ClockAdvanceRequest: AdvanceBody,
  MarketPrintsRequest: PrintsBody,
  FaultWindowRequest: FaultBody,
  ...FORM_COMPONENTS,
};
