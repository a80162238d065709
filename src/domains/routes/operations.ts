/** The routes domain's operations, in catalog order (DESIGN §3). */
import { addRouteBranches } from './graph/operations/add-route-branches.ts';
import { addRouteStep } from './graph/operations/add-route-step.ts';
import { createRoute } from './graph/operations/create-route.ts';
import { getRoute } from './graph/operations/get-route.ts';
import { listRoutes } from './graph/operations/list-routes.ts';
import { updateRoute } from './graph/operations/update-route.ts';

export const routeOperations = [listRoutes, getRoute, updateRoute, createRoute, addRouteStep, addRouteBranches];
