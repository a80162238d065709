/**
 * The views a tool's result can render as inside the assistant (MCP Apps, issue 29): a `ui://`
 * resource of MIME type `text/html;profile=mcp-app` per view, named in its tool's `_meta.ui`. Each is
 * one self-contained document (its style, its script, the shared view kit and the bridge to the host
 * inlined; no network),
 * assembled from the files beside this one on first use. Clients without MCP Apps ignore `_meta.ui`
 * and read the tool's JSON, which stays complete.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

interface View {
  uri: string;
  /** The tool whose results it renders. */
  tool: string;
  name: string;
  description: string;
  file: string;
}

const VIEWS: readonly View[] = [
  {
    uri: 'ui://cuepoint/video-retention.html',
    tool: 'get_video_retention',
    name: 'Video retention',
    description: 'The retention curve of a video, its biggest drop-offs and rewatch peaks.',
    file: 'retention.html',
  },
  {
    uri: 'ui://cuepoint/lead-journey.html',
    tool: 'get_lead_journey',
    name: 'Lead journey',
    description: 'A lead’s timeline across videos: views, clicks, forms, notes, status changes, outcomes, bookings.',
    file: 'journey.html',
  },
  {
    uri: 'ui://cuepoint/route.html',
    tool: 'get_route',
    name: 'Route graph',
    description: 'A route’s steps and choices as a graph, with reach, shares, drop-off, problems and common paths.',
    file: 'route.html',
  },
];

const byTool = new Map(VIEWS.map((view) => [view.tool, view]));
const byUri = new Map(VIEWS.map((view) => [view.uri, view]));
const documents = new Map<string, string>();

/** The `_meta` a tool with a view carries (the current key, and the one hosts of the first drafts read). */
export function viewMetaOf(tool: string): Record<string, unknown> | undefined {
  const view = byTool.get(tool);
  return view ? { ui: { resourceUri: view.uri }, 'ui/resourceUri': view.uri } : undefined;
}

/** resources/list: every view. */
export function listViews() {
  return VIEWS.map((view) => ({ uri: view.uri, name: view.name, description: view.description, mimeType: VIEW_MIME_TYPE }));
}

/** resources/read of a view, or undefined for a URI that names none. */
export function readView(uri: string) {
  const view = byUri.get(uri);
  if (!view) return undefined;
  return {
    contents: [
      {
        uri: view.uri,
        mimeType: VIEW_MIME_TYPE,
        text: documentOf(view),
        // No connectDomains or resourceDomains: the view reaches nothing but its host.
        _meta: { ui: { prefersBorder: true, csp: {} } },
      },
    ],
  };
}

function documentOf(view: View): string {
  let document = documents.get(view.uri);
  if (document === undefined) {
    const here = import.meta.dirname;
    document = readFileSync(join(here, view.file), 'utf8')
      .replace('/* view-base.css */', readFileSync(join(here, 'view-base.css'), 'utf8'))
      .replace('/* view-kit.js */', readFileSync(join(here, 'view-kit.js'), 'utf8'))
      .replace('/* view-bridge.js */', readFileSync(join(here, 'view-bridge.js'), 'utf8'));
    documents.set(view.uri, document);
  }
  return document;
}
