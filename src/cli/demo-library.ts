/**
 * The demo library `seed --demo` fills a workspace with: a plausible B2B video library, generated
 * from a fixed seed so every run produces the same titles, tags and statuses. Its ready videos are
 * short clips made at seed time (demo-clip.ts), 15 to 60 s long; its viewing is played by
 * demo-viewing.ts.
 */
import { DEMO_CLIP_HEIGHT, DEMO_CLIP_WIDTH } from './demo-clip.ts';

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
  status: 'waiting_upload' | 'processing' | 'ready' | 'failed';
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

export function demoVideos(): DemoVideo[] {
  const random = prng(20261121);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const videos: DemoVideo[] = [];
  for (const folder of DEMO_FOLDERS) {
    const subject = SUBJECTS[folder];
    for (const title of subject.titles) {
      const roll = random();
      const status = roll < 0.82 ? 'ready' : roll < 0.9 ? 'processing' : roll < 0.95 ? 'waiting_upload' : 'failed';
      const durationSeconds = status === 'ready' ? Math.round(15 + random() * 45) : null;
      const slug = title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
      const extraTag = pick(['2026', 'evergreen', 'needs-refresh', 'featured', 'internal']);
      videos.push({
        folder,
        title,
        description: `${title}. Part of our ${folder.toLowerCase()} collection.`,
        tags: [...new Set([pick(subject.tags), pick(subject.tags), extraTag])],
        status,
        archived: status === 'ready' && random() < 0.08,
        durationSeconds,
        fileName: `${slug}.mp4`,
        // The size declared for an upload still on its way; a ready video's row takes its clip's size.
        fileSize: Math.round((durationSeconds ?? 120) * (180_000 + random() * 400_000)),
        width: status === 'ready' ? DEMO_CLIP_WIDTH : null,
        height: status === 'ready' ? DEMO_CLIP_HEIGHT : null,
        failureReason: status === 'failed' ? 'The file is not a video: no video track was found.' : null,
        ageDays: Math.floor(random() * 365),
      });
    }
  }
  return videos;
}
