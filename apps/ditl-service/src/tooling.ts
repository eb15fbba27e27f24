// What the benchmarks and the system tests may use of this service: its planner, its evaluation profiles and its
// generations table, and nothing else.
export { evaluationProfiles } from './evaluation/profiles';
export { GenerationsRepository } from './generations/generations.repository';
export { buildOfflinePlan, warmUpOfflinePlanner } from './planner/offline-planner';
export { checkPlan } from './planner/plan-checks';
export { planContext } from './planner/plan-context';
export type { DitlPlanner } from './planner/planner';
export { renderPresentation } from './planner/presentation-html';
