export interface UpcomingRoute {
  path: string;
  name: string;
  purpose: string;
}

/** Screens of the spec that later issues build; until then they share the NotBuiltYet page. */
export const upcomingRoutes: readonly UpcomingRoute[] = [];
