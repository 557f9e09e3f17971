// Plans for the models: the kernel tests' plans (docs/risk-rules.md#plan-templates), written as a firm writes them.
export { testPlan as modelPlan } from '../core/kernel/test-plans.js';
