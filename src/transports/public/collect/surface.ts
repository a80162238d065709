/** The collect surface: POST /collect, the players' viewing batches. */
import type { PublicSurface } from '../surface.ts';
import { registerCollect } from './collect.ts';

export const collectSurface: PublicSurface = { name: 'collect', register: registerCollect };
