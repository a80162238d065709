/**
 * What the library shows when it lists nothing: for a newcomer, the three steps from an empty library
 * to a video that brings leads, with the way to start (or, for a viewer, who can); when filters hide
 * everything, a way back to the whole library.
 */
import type { PageContext } from '../kit/page-route.ts';

export function libraryEmptyState(ctx: PageContext, filtered: boolean, folderCount: number): string {
  if (filtered) {
    return (
      '<div class="library-empty"><h2>No videos match these filters</h2>' +
      '<p>Try fewer filters, another word, or include archived videos.</p>' +
      '<p><a class="button" href="/app/videos">Show every video</a></p></div>'
    );
  }
  const start = ctx.may('videos:write')
    ? '<p class="actions"><a class="button primary" href="/app/videos/new">Upload a video</a>' +
      '<a class="button" href="/app/videos/new#import">Import from a link</a>' +
      (folderCount === 0 ? '<a class="button" href="/app/videos/folders">Create a folder</a>' : '') +
      '</p>'
    : '<p>Your role can watch and read the library; ask an owner, an admin or a member of this workspace to add the first video.</p>';
  return (
    '<div class="library-empty"><h2>Your library is empty</h2>' +
    '<p>Every video you add gets a watch page, an embed code and statistics on who watched what.</p>' +
    '<ol class="steps-inline">' +
    '<li><strong>Add a video.</strong> Upload a file from this computer, or import it from a public link.</li>' +
    '<li><strong>Let it process.</strong> It is ready in a minute or two; you can follow it live.</li>' +
    '<li><strong>Share it.</strong> Send its watch page, embed it, or ask viewers for their email with a lead form.</li>' +
    '</ol>' +
    start +
    '</div>'
  );
}
