/**
 * Lead privacy: the masking rules, and masking applied by the pipeline to every field an output
 * schema marks as personal, identically over REST and MCP, only while the workspace masks.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from 'typebox';
import { startTestApp } from '../../test/helpers/app.ts';
import { callTool, connectMcp } from '../../test/helpers/mcp-client.ts';
import { catalog } from '../catalog.ts';
import { defineOperation } from './operation.ts';
import { maskValue, PersonalString } from './pii.ts';
import { Nullable } from './schemas.ts';

test('masking rules: email, phone, name', () => {
  assert.equal(maskValue('email', 'jane.doe@example.com'), 'j***@e***.com');
  assert.equal(maskValue('email', 'x@mail.co.uk'), 'x***@m***.uk');
  assert.equal(maskValue('email', 'broken'), 'b***');
  assert.equal(maskValue('phone', '+1 (415) 555-0189'), '***89');
  assert.equal(maskValue('name', 'Émile'), 'É***');
  assert.equal(maskValue('name', ''), '');
});

const Contact = Type.Object({ email: PersonalString('email'), name: Nullable(PersonalString('name')), company: Type.String() });
const leadLike = defineOperation({
  name: 'get_test_contacts',
  summary: 'Contacts for the masking test',
  description: 'Test-only read returning personal fields at several depths, as lead operations will.',
  method: 'GET',
  path: '/test/contacts',
  group: 'Test',
  scope: 'leads:read',
  write: false,
  errors: [],
  input: Type.Object({}, { additionalProperties: false }),
  output: Type.Object({
    primary: Contact,
    phone: PersonalString('phone'),
    others: Type.Array(Contact),
    note: Type.String(),
  }),
  example: {},
  async handler() {
    return {
      primary: { email: 'jane.doe@example.com', name: 'Jane Doe', company: 'Acme' },
      phone: '+1 415 555 0189',
      others: [{ email: 'max@corp.io', name: null, company: 'Corp' }],
      note: 'jane.doe@example.com is not marked here',
    };
  },
});

const masked = {
  primary: { email: 'j***@e***.com', name: 'J***', company: 'Acme' },
  phone: '***89',
  others: [{ email: 'm***@c***.io', name: null, company: 'Corp' }],
  note: 'jane.doe@example.com is not marked here',
};

test('personal fields are masked on REST and MCP while the workspace masks, and shown when it does not', async (t) => {
  const { app, request, workspace, database } = await startTestApp(t, { operations: [...catalog, leadLike] });
  const ws = await workspace();
  const rest = await request('GET', '/v1/test/contacts', { token: ws.key });
  assert.deepEqual(rest.body, masked);
  const client = await connectMcp(t, app, ws.key);
  await client.listTools();
  const tool = await callTool(client, 'get_test_contacts');
  assert.deepEqual(tool.structuredContent, masked);
  assert.doesNotMatch(JSON.stringify(tool.content), /Jane Doe|0189/);

  await database.db.updateTable('workspaces').set({ mask_pii: false }).where('id', '=', ws.id).execute();
  const clear = await request('GET', '/v1/test/contacts', { token: ws.key });
  assert.equal(clear.body.primary.email, 'jane.doe@example.com');
  assert.equal(clear.body.phone, '+1 415 555 0189');
});
