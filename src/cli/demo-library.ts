/**
 * The demo library `seed --demo` fills a workspace with: a plausible B2B video library, generated
 * from a fixed seed so every run produces the same titles, tags and statuses. Its ready videos are
 * short clips made at seed time (demo-clip.ts), 15 to 60 s long; its viewing is played by
 * demo-viewing.ts.
 */
import { DEMO_CLIP_HEIGHT, DEMO_CLIP_WIDTH } from './demo-clip.ts';
import { DEMO_ROUTE_TITLES } from './demo-route-plans.ts';

export const DEMO_FOLDERS = ['Onboarding', 'Product tours', 'Sales demos', 'Webinars', 'Customer stories', 'Support'] as const;

const SUBJECTS: Record<(typeof DEMO_FOLDERS)[number], { titles: string[]; tags: string[] }> = {
  Onboarding: {
    titles: [
      'Welcome to the team',
      'Setting up your account',
      'Your first week',
      'Connecting your calendar',
      'Inviting your teammates',
      'Finding your way around',
      'Security basics',
      'Where to get help',
      'Configuring notifications',
      'Your first project',
    ],
    tags: ['onboarding', 'getting-started', 'new-customers'],
  },
  'Product tours': {
    titles: [
      'Product tour in five minutes',
      'Dashboards deep dive',
      'Reporting walkthrough',
      'Automations explained',
      'Mobile app tour',
      'Integrations overview',
      'Admin console tour',
      'What is new this quarter',
      'Search tips and tricks',
      'Permissions and roles',
    ],
    tags: ['product', 'tour', 'features'],
  },
  'Sales demos': {
    titles: [
      'Demo for agencies',
      'Demo for e-commerce teams',
      'Demo for SaaS founders',
      'Pricing explained',
      'ROI calculator walkthrough',
      'Enterprise plan overview',
      'Migration from spreadsheets',
      'Security and compliance for buyers',
      'Comparing plans',
      'Ten-minute live demo recording',
    ],
    tags: ['sales', 'demo', 'pricing'],
  },
  Webinars: {
    titles: [
      'Video strategy for 2027',
      'Turning viewers into leads',
      'Analytics that matter',
      'Personal video at scale',
      'Building interactive routes',
      'Q&A with our founders',
      'Webinar: scaling support with video',
      'Webinar: async selling',
      'Panel: the future of video',
      'Workshop: scripting short videos',
    ],
    tags: ['webinar', 'education', 'marketing'],
  },
  'Customer stories': {
    titles: [
      'How Northwind doubled demo bookings',
      'Acme cuts onboarding time in half',
      'Globex: video in every sales email',
      'Initech’s support team story',
      'Umbrella Health: training at scale',
      'Hooli’s launch playbook',
      'Stark Logistics on async updates',
      'Wayne Retail’s product videos',
      'Soylent Labs grows with routes',
      'Vandelay Imports customer interview',
    ],
    tags: ['case-study', 'customers', 'social-proof'],
  },
  Support: {
    titles: [
      'Resetting your password',
      'Exporting your data',
      'Fixing playback problems',
      'Billing questions answered',
      'Managing API keys',
      'Troubleshooting uploads',
      'Embedding videos on your site',
      'Setting up webhooks',
      'Understanding your invoice',
      'Closing your account',
    ],
    tags: ['support', 'how-to', 'faq'],
  },
};

export interface DemoVideo {
  folder: (typeof DEMO_FOLDERS)[number];
  title: string;
  description: string;
  tags: string[];
  status: 'waiting_upload' | 'ready' | 'failed';
  archived: boolean;
  durationSeconds: number | null;
  fileName: string;
  fileSize: number;
  width: number | null;
  height: number | null;
  failureReason: string | null;
  ageDays: number;
}

/** Mulberry32: a tiny deterministic PRNG, so the demo is the same on every machine. */
export function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * What a real library holds now: most videos ready, an upload or two started today and not finished,
 * and a few that failed, each for a reason ffmpeg would give. Nothing says "processing": a real
 * worker would have finished those long ago.
 */
const FAILURES = [
  'The file is not a video: no video track was found.',
  'The file is damaged: the video stream ends before its declared length.',
  'The video codec (ProRes RAW) is not supported.',
];

/** One line about each video, saying what the title does not, as a real library's would. */
const DESCRIPTIONS: Record<string, string> = {
  'Welcome to the team': 'Meet the people behind your account and what the next two weeks look like.',
  'Setting up your account': 'Company details, your logo and time zone, and the two settings worth changing on day one.',
  'Your first week': 'A day-by-day plan for the first five days, from the kickoff call to your first published video.',
  'Connecting your calendar': 'Link Google or Outlook so meetings booked from a video land in the right diary.',
  'Inviting your teammates': 'Roles explained in plain words, and how to invite a whole team from a spreadsheet.',
  'Finding your way around': 'The sidebar, search and keyboard shortcuts, in ninety seconds.',
  'Security basics': 'Single sign-on, two-step sign-in and who can see personal data.',
  'Where to get help': 'Chat, the help centre and office hours: which to use for what, and how fast each answers.',
  'Configuring notifications': 'Choose what reaches your inbox and what waits for the weekly summary.',
  'Your first project': 'Upload a recording, trim it, add a call to action and share the link, start to finish.',
  'Product tour in five minutes': 'Everything the product does, shown on a real account rather than slides.',
  'Dashboards deep dive': 'Build a dashboard for your team, pick the metrics that matter and share it read-only.',
  'Reporting walkthrough': 'Scheduled reports, exports to CSV, and comparing this month with the last.',
  'Automations explained': 'Trigger actions when a viewer finishes a video or fills in a form, no code needed.',
  'Mobile app tour': 'Record on the go, review comments and approve edits from your phone.',
  'Integrations overview': 'HubSpot, Salesforce, Slack and Zapier: what each sync sends and when.',
  'Admin console tour': 'Billing, seats, data retention and the audit log, for workspace owners.',
  'What is new this quarter': 'Interactive routes, captions in twelve languages and faster uploads.',
  'Search tips and tricks': 'Find the moment someone said a word, across every transcript in the library.',
  'Permissions and roles': 'Who can publish, who can delete, and how to give a contractor view-only access.',
  'Demo for agencies': 'Run client video projects from one workspace with separate folders and reports per client.',
  'Demo for e-commerce teams': 'Product videos that sell: shoppable calls to action and revenue per video.',
  'Demo for SaaS founders': 'Replace the first sales call with a video that books the second one.',
  'Pricing explained': 'What each plan includes, how seats are counted and what happens when you grow.',
  'ROI calculator walkthrough': 'Plug in your own numbers and see the hours and deals a video programme returns.',
  'Enterprise plan overview': 'SSO, a dedicated success manager, custom contracts and a 99.95% uptime commitment.',
  'Migration from spreadsheets': 'Move your video links, owners and notes over in an afternoon, with nothing lost.',
  'Security and compliance for buyers': 'SOC 2, GDPR, data residency and the questionnaire answers your security team will ask for.',
  'Comparing plans': 'Free, Pro and Business side by side, with the one question that decides between them.',
  'Ten-minute live demo recording': 'A real demo call with a prospect, recorded with permission and cut to ten minutes.',
  'Video strategy for 2027': 'Three trends from a year of viewing data, and the plan we would make with them.',
  'Turning viewers into leads': 'Where to place a form, what to ask, and why asking less converts more.',
  'Analytics that matter': 'Retention curves, drop-off points and the one metric we check every Monday.',
  'Personal video at scale': 'Record once, personalise for hundreds of accounts without sounding like a robot.',
  'Building interactive routes': 'Let viewers choose their own path and send each to the right next step.',
  'Q&A with our founders': 'Forty questions from customers answered live, from the roadmap to pricing.',
  'Webinar: scaling support with video': 'How three support teams cut repeat tickets with short how-to videos.',
  'Webinar: async selling': 'Close deals across time zones with video follow-ups instead of more meetings.',
  'Panel: the future of video': 'Four marketing leaders on AI editing, short formats and measuring attention.',
  'Workshop: scripting short videos': 'A hands-on session: write, record and tighten a sixty-second script.',
  'How Northwind doubled demo bookings': 'Northwind put a two-minute video on their pricing page; bookings went from 40 to 85 a month.',
  'Acme cuts onboarding time in half': 'Acme replaced a week of kickoff calls with a self-paced video route.',
  'Globex: video in every sales email': 'Globex reps send a thirty-second video with every first email; replies rose by a third.',
  'Initech’s support team story': 'How Initech answers the same question once, on video, instead of forty times a week.',
  'Umbrella Health: training at scale': 'Training 2,000 clinic staff across six countries, with completion tracked per person.',
  'Hooli’s launch playbook': 'The teaser, the demo and the follow-up sequence behind Hooli’s biggest launch.',
  'Stark Logistics on async updates': 'Weekly updates on video cut Stark Logistics’ status meetings from five to one.',
  'Wayne Retail’s product videos': 'Wayne Retail films every new product in one take; returns fell by twelve per cent.',
  'Soylent Labs grows with routes': 'An interactive route qualifies Soylent Labs’ inbound leads before sales calls.',
  'Vandelay Imports customer interview': 'An unscripted conversation with Vandelay’s head of operations about year one.',
  'Resetting your password': 'Locked out? Reset it from the sign-in page, or ask an admin to send a link.',
  'Exporting your data': 'Download your videos, leads and viewing data as CSV, or schedule a weekly export.',
  'Fixing playback problems': 'Buffering, black screens and missing sound: the checks that fix nine cases in ten.',
  'Billing questions answered': 'Invoices, VAT numbers, changing card details and moving between monthly and yearly billing.',
  'Managing API keys': 'Create a key with only the access it needs, rotate it, and revoke one that leaked.',
  'Troubleshooting uploads': 'Large files, slow connections and unsupported formats, and how to resume an upload.',
  'Embedding videos on your site': 'Copy the embed code, keep it responsive and track views from your own pages.',
  'Setting up webhooks': 'Receive an event the moment a lead is captured, and verify every signature.',
  'Understanding your invoice': 'Each line of the invoice explained: seats, overage and credits.',
  'Closing your account': 'What is kept, what is deleted and how to take your data with you first.',
};

export function demoVideos(): DemoVideo[] {
  const random = prng(20261121);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const videos: DemoVideo[] = [];
  for (const folder of DEMO_FOLDERS) {
    const subject = SUBJECTS[folder];
    for (const title of subject.titles) {
      const roll = random();
      // A route's videos play every day of the history the visits cover: ready, served, old enough.
      const inRoute = DEMO_ROUTE_TITLES.has(title);
      const status = inRoute || roll < 0.88 ? 'ready' : roll < 0.93 ? 'waiting_upload' : 'failed';
      const durationSeconds = status === 'ready' ? Math.round(15 + random() * 45) : null;
      const slug = title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
      const extraTag = pick(['2026', 'evergreen', 'needs-refresh', 'featured', 'internal']);
      const age = Math.floor(random() * 365);
      videos.push({
        folder,
        title,
        description: DESCRIPTIONS[title] ?? title,
        tags: [...new Set([pick(subject.tags), pick(subject.tags), extraTag])],
        status,
        archived: status === 'ready' && !inRoute && random() < 0.08,
        durationSeconds,
        fileName: `${slug}.mp4`,
        // The size declared for an upload still on its way; a ready video's row takes its clip's size.
        fileSize: Math.round((durationSeconds ?? 120) * (180_000 + random() * 400_000)),
        width: status === 'ready' ? DEMO_CLIP_WIDTH : null,
        height: status === 'ready' ? DEMO_CLIP_HEIGHT : null,
        failureReason: status === 'failed' ? pick(FAILURES) : null,
        // An unfinished upload was started today; a route's video is older than the 90 days of visits.
        ageDays: status === 'waiting_upload' ? 0 : inRoute ? 100 + (age % 200) : age,
      });
    }
  }
  return videos;
}
