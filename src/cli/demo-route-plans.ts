/**
 * The demo's routes as data: their names, steps (each a video of the demo library, by title),
 * questions, choices and how many visits a day they get. demo-routes.ts builds and walks them;
 * demo-library.ts keeps every video they name ready, served and older than the visits.
 */
/** A step of a demo route: its video, and its question and choices (none: the route ends with it). */
export interface DemoStep {
  /** The title of its video in the demo library (demo-library.ts keeps these ready and old enough). */
  video: string;
  question?: string;
  choices?: DemoChoice[];
}

export type DemoChoice = { label: string; weight: number } & ({ to: number } | { url: string } | { leadForm: true } | { end: true });

export interface DemoRoute {
  name: string;
  status: 'live' | 'draft';
  steps: DemoStep[];
  /** Visits per day, on average. */
  perDay: number;
  /** Of the visits at a step with a question, the share that leave without choosing. */
  dropOff: number;
}

/** The routes, each step naming its video by title, so a route opens on what its name promises. */
export const DEMO_ROUTES: DemoRoute[] = [
  {
    name: 'Which plan fits you?',
    status: 'live',
    perDay: 3,
    dropOff: 0.25,
    steps: [
      {
        video: 'Comparing plans',
        question: 'Which sounds like you?',
        choices: [
          { label: 'Just me', to: 1, weight: 3 },
          { label: 'A team of 5–50', to: 2, weight: 4 },
          { label: 'Show me pricing', url: 'https://example.com/pricing', weight: 1 },
        ],
      },
      {
        video: 'Product tour in five minutes',
        question: 'Ready to start?',
        choices: [
          { label: 'Start free', end: true, weight: 3 },
          { label: 'Back to the start', to: 0, weight: 1 },
        ],
      },
      {
        video: 'Ten-minute live demo recording',
        question: 'Want a walkthrough for your team?',
        choices: [
          { label: 'Talk to sales', leadForm: true, weight: 2 },
          { label: 'Not now', end: true, weight: 2 },
        ],
      },
    ],
  },
  {
    name: 'Get set up in five minutes',
    status: 'live',
    perDay: 2,
    dropOff: 0.15,
    steps: [
      {
        video: 'Setting up your account',
        question: 'What will you do first?',
        choices: [
          { label: 'Upload a video', to: 1, weight: 3 },
          { label: 'Invite my team', to: 2, weight: 2 },
        ],
      },
      { video: 'Your first project' },
      { video: 'Inviting your teammates' },
    ],
  },
  {
    name: 'Customer stories (draft)',
    status: 'draft',
    perDay: 0,
    dropOff: 0,
    // No choice leads to the second step yet: the unreachable_step problem get_route shows.
    steps: [
      { video: 'How Northwind doubled demo bookings', question: 'Which industry?', choices: [{ label: 'Software', end: true, weight: 1 }] },
      { video: 'Acme cuts onboarding time in half' },
    ],
  },
];

/** Every title a demo route plays. */
export const DEMO_ROUTE_TITLES: ReadonlySet<string> = new Set(DEMO_ROUTES.flatMap((route) => route.steps.map((step) => step.video)));
