import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { customerDetailsParams, productParams, saleDetailsParams, savRequestBody, savStatusQuery } from '../../../src/rest/chatbot/schemas.ts';

describe('the chatbot API schemas', () => {
  it('each describes its input as JSON Schema, for the OpenAPI document', () => {
    const body = z.toJSONSchema(savRequestBody, { io: 'input' }) as { required: string[]; properties: Record<string, { enum?: string[] }> };
    expect(body.required).toEqual(['increment_id', 'email', 'complaint_name', 'complaint']);
    expect(body.properties.request_type?.enum).toEqual(['complaint', 'damaged_product', 'missing_part', 'delivery_issue', 'other']);
    for (const schema of [saleDetailsParams, customerDetailsParams, productParams, savStatusQuery]) {
      expect(z.toJSONSchema(schema, { io: 'input' })).toMatchObject({ type: 'object' });
    }
  });

  it('when the request type is left out, it is a complaint', () => {
    const parsed = savRequestBody.parse({ increment_id: '1', email: 'a@example.org', product_sku: 'A', complaint_name: 'x', complaint: 'y' });
    expect(parsed.request_type).toBe('complaint');
  });
});
