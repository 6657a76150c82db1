import { describe, expect, it } from 'vitest';
import { MAX_TOOL_NAME, providerToolNames } from '../../src/mcp/names.js';
import { providerSchema } from '../../src/mcp/schema.js';

const SAFE = /^[a-zA-Z0-9_-]{1,64}$/;

describe('MCP tool names for the providers', () => {
  it('<server>__<tool> when that is safe; otherwise replaced, cut to 64 and made unique with a stable hash', () => {
    const long = `fetch_${'x'.repeat(80)}`;
    const names = providerToolNames('crm', ['get-contact', 'search contacts', 'search_contacts', 'ünïcode.tool', long, `${long}y`]);
    expect(names.get('get-contact')).toBe('crm__get-contact');
    expect(names.get('search_contacts')).toBe('crm__search_contacts');
    expect(names.get('search contacts')).toMatch(/^crm__search_contacts_[0-9a-f]{8}$/);
    for (const name of names.values()) expect(name).toMatch(SAFE);
    expect(names.get(long)!.length).toBe(MAX_TOOL_NAME);
    expect(new Set(names.values()).size).toBe(6);
    // Stable: the same list gives the same names, whatever the order.
    const again = providerToolNames('crm', [long, 'ünïcode.tool', `${long}y`, 'search_contacts', 'search contacts', 'get-contact']);
    expect(Object.fromEntries(again)).toEqual(Object.fromEntries(names));
  });

  it('a name already taken (a built-in tool, another server) is not given twice', () => {
    const names = providerToolNames('a', ['b__c'], new Set(['a__b__c']));
    expect(names.get('b__c')).toMatch(/^a__b__c_[0-9a-f]{8}$/);
  });
});

describe('MCP input schemas for the providers', () => {
  it('is always a top-level object, with what a provider refuses at the top level folded', () => {
    expect(providerSchema(undefined)).toEqual({ type: 'object', properties: {} });
    expect(providerSchema({ type: 'string' })).toEqual({ type: 'object', properties: {} });
    expect(
      providerSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        allOf: [{ properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'number' } } }],
        properties: { c: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
      }),
    ).toEqual({ type: 'object', properties: { c: { anyOf: [{ type: 'string' }, { type: 'null' }] }, a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] });
  });
});
