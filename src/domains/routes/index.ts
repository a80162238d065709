/** The routes domain's operations, in catalog order (DESIGN §3). */
import { addRouteBranches } from './operations/add-route-branches.ts';
import { addRouteStep } from './operations/add-route-step.ts';
import { createRoute } from './operations/create-route.ts';
import { getRoute } from './operations/get-route.ts';
import { listRoutes } from './operations/list-routes.ts';
import { updateRoute } from './operations/update-route.ts';

export const routeOperations = [listRoutes, getRoute, updateRoute, createRoute, addRouteStep, addRouteBranches];
