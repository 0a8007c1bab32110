import { z } from 'zod';
import { documentedAsKey } from '../documented-as.ts';

/**
 * Builds the OpenAPI 3.1 document from route descriptions that hold the routes' own zod schemas, so
 * the document says what the code parses and answers. OpenAPI 3.1 speaks JSON Schema 2020-12, which
 * is zod's native target: schemas are printed as they are, without translation.
 */

export type HttpMethod = 'get' | 'post' | 'delete';

/** One scheme per group, so that a client or the reference page holds each group's token apart. */
export type SecurityName = 'coreBearer' | 'supplierBearer' | 'apiToken' | 'metricsBearer' | 'auditorBearer';

export type ResponseDoc = {
  description: string;
  /** The body; absent for a response without one. */
  body?: z.ZodType;
  /** A body that is a file of this media type rather than JSON (then `body` is left out). */
  file?: string;
  example?: unknown;
  /** The body's media types when it is not JSON (a file): `body` then describes the bytes. */
  mediaTypes?: readonly string[];
  /** Response headers, one per key of the object, required when the key is. */
  headers?: z.ZodObject;
  /** OpenAPI links: the operations this answer leads to, with runtime expressions for their inputs. */
  links?: Record<string, { operationId: string; parameters?: Record<string, string>; requestBody?: unknown; description?: string }>;
};

export type RouteDoc = {
  method: HttpMethod;
  /** In Koa's notation (`/api/product/:sku`), as the router registers it. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: SecurityName;
  /** The route also answers without the scheme (a signed link, say): the token is one way in, not the only one. */
  securityOptional?: boolean;
  pathParams?: z.ZodObject;
  query?: z.ZodType;
  /** Request headers the operation reads (beyond its security scheme's). */
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** A request body that is a file of one of these media types rather than JSON (then `body` is left out). */
  bodyFile?: readonly string[];
  /** The body may be left out (an empty object is then read). */
  bodyOptional?: boolean;
  /** A request body as a client would send it (the demo data's). */
  bodyExample?: unknown;
  responses: Record<number, ResponseDoc>;
};

type JsonSchema = Record<string, unknown>;

/** A schema whose owner prints its JSON Schema (an import contract, printed as its clients send it): served as printed. */
export type PrintedSchema = { schema: z.ZodType; jsonSchema: JsonSchema };

export type DocumentOptions = {
  baseUrl: string;
  routes: readonly RouteDoc[];
  /** Schemas printed once under components.schemas and referenced wherever the same schema object is used. */
  components: Readonly<Record<string, z.ZodType | PrintedSchema>>;
  /** The messages the service sends to subscribed endpoints (OpenAPI 3.1 `webhooks`), by name. */
  webhooks?: readonly { name: string; summary: string; body: z.ZodType }[];
};

/** What a client sends (`input`: before defaults and transforms) or receives (`output`). */
const jsonSchemaOf = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  // Rules zod cannot print (refinements, transforms) are left out, and told in the descriptions instead;
  // a schema that says how it is documented (documented-as.ts) is printed so.
  const { $schema: _dialect, ...printed } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: ({ jsonSchema }) => {
      const replacement = jsonSchema[documentedAsKey] as JsonSchema | undefined;
      if (replacement === undefined) return;
      const { description } = jsonSchema;
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
      Object.assign(jsonSchema, replacement, description !== undefined && { description });
    },
  });
  return printed;
};

/** A query or path value is text: a null alternative (of a blank-as-absent field) cannot be sent. */
const withoutNull = (schema: JsonSchema): JsonSchema =>
  Array.isArray(schema.anyOf) ? { ...schema, anyOf: (schema.anyOf as JsonSchema[]).filter((alternative) => alternative.type !== 'null') } : schema;

/** `:name` becomes `{name}`. */
export const openApiPath = (koaPath: string): string => koaPath.replace(/:(\w+)/g, '{$1}');

const parametersOf = (schema: z.ZodType, location: 'path' | 'query' | 'header') => {
  const object = jsonSchemaOf(schema, 'input');
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, { description, ...property }]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    ...(description !== undefined && { description }),
    schema: withoutNull(property),
  }));
};

/** Keywords that tie query parameters to one another ("exactly one of"): separate parameters cannot carry them. */
const acrossParameters = ['oneOf', 'anyOf', 'allOf', 'not', 'if', 'dependentRequired', 'dependentSchemas'];

/**
 * The query parameters: one per property; or, when the schema has a rule across them, one object
 * parameter whose properties are the query's parameters (form style, exploded: `?email=...`, as
 * before), so that the rule is stated where client generators and fuzzers read it.
 */
const queryParametersOf = (schema: z.ZodType) => {
  const { description, properties = {}, ...object } = jsonSchemaOf(schema, 'input');
  if (!acrossParameters.some((keyword) => keyword in object)) return parametersOf(schema, 'query');
  // An absent query must be allowed unless the rule asks for a parameter in every case.
  const alternatives = [object.oneOf, object.anyOf].find(Array.isArray) as JsonSchema[] | undefined;
  const asksForOne = ((object.required ?? []) as string[]).length > 0 || (alternatives?.every((branch) => Array.isArray(branch.required)) ?? false);
  const textual = Object.fromEntries(Object.entries(properties as Record<string, JsonSchema>).map(([name, property]) => [name, withoutNull(property)]));
  return [
    {
      name: 'query',
      in: 'query',
      required: asksForOne,
      style: 'form',
      explode: true,
      ...(description !== undefined && { description }),
      schema: { ...object, properties: textual },
    },
  ];
};

const headersOf = (schema: z.ZodObject) =>
  parametersOf(schema, 'query').map(({ name, required, description, schema: header }) => [
    name,
    { required, ...(description !== undefined && { description }), schema: header },
  ]);

/** A component as components.schemas prints it: a zod schema as it answers (`output`), a printed one as its owner printed it. */
const componentJsonSchema = (component: z.ZodType | PrintedSchema): JsonSchema => {
  if (component instanceof z.ZodType) return jsonSchemaOf(component, 'output');
  const { $schema: _dialect, ...printed } = component.jsonSchema;
  return printed;
};

export const buildOpenApiDocument = (options: DocumentOptions) => {
  const componentNames = new Map(
    Object.entries(options.components).map(([name, component]) => [component instanceof z.ZodType ? component : component.schema, name]),
  );
  const bodySchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const name = componentNames.get(schema);
    return name ? { $ref: `#/components/schemas/${name}` } : jsonSchemaOf(schema, io);
  };

  const operationOf = (route: RouteDoc) => ({
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description !== undefined && { description: route.description }),
    tags: route.tags,
    security: route.security ? [{ [route.security]: [] }, ...(route.securityOptional ? [{}] : [])] : [],
    parameters: [
      ...(route.pathParams ? parametersOf(route.pathParams, 'path') : []),
      ...(route.query ? queryParametersOf(route.query) : []),
      ...(route.headers ? parametersOf(route.headers, 'header') : []),
    ],
    ...(route.bodyFile && {
      requestBody: {
        required: true,
        content: Object.fromEntries(route.bodyFile.map((mediaType) => [mediaType, { schema: { type: 'string', contentMediaType: mediaType } }])),
      },
    }),
    ...(route.body && {
      requestBody: {
        required: route.bodyOptional !== true,
        content: {
          'application/json': { schema: bodySchema(route.body, 'input'), ...(route.bodyExample !== undefined && { example: route.bodyExample }) },
        },
      },
    }),
    responses: Object.fromEntries(
      Object.entries(route.responses).map(([status, response]) => [
        status,
        {
          description: response.description,
          ...(response.headers && { headers: Object.fromEntries(headersOf(response.headers)) }),
          ...(response.links && { links: response.links }),
          ...(response.file && { content: { [response.file]: { schema: { type: 'string', contentMediaType: response.file } } } }),
          ...(response.body && {
            content: Object.fromEntries(
              (response.mediaTypes ?? ['application/json']).map((mediaType) => [
                mediaType,
                { schema: bodySchema(response.body!, 'output'), ...(response.example !== undefined && { example: response.example }) },
              ]),
            ),
          }),
        },
      ]),
    ),
  });

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of options.routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method]: operationOf(route) };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'SAV order service API',
      version: '1.0.0',
      description:
        'Every REST route of the service: the core API (Bearer token of the core group: storefront, warehouse, back-office), the supplier API (Bearer token of the supplier, one path segment per supplier) with its label files, the chatbot API (X-API-Token, French texts) and the health check. Errors answer in the envelope of their group: core `{success: false, error, message}` in English, chatbot the same in French, supplier `{success: false, message}` (401: `{error, message}`). GraphQL (POST /graphql) is described by its own schema.',
    },
    servers: [{ url: options.baseUrl }],
    tags: [
      { name: 'core-sales', description: 'The full sale, its refunds and its delivery appointment configuration.' },
      {
        name: 'core-sale-actions',
        description:
          'Actions carried by signed action tokens (minted by `cli action-token`): appointment, address, third-party delivery, cancellation, invoice.',
      },
      { name: 'core-orders', description: 'The order import and the package search.' },
      { name: 'core-leads', description: 'Contact leads, mailed to the team by the outbox job.' },
      { name: 'core-customers', description: "The customers' right to erasure: their personal data made unreadable in the log (crypto-shredding)." },
      {
        name: 'core-e-invoicing',
        description: 'The e-invoices of business customers and the e-reporting of consumer sales, handed to the approved platform (PLATFORM_URL).',
      },
      { name: 'core-sav', description: 'Staff open SAVs, attach and download their files, and resolve, close, reopen and cancel them.' },
      { name: 'core-planning', description: 'The SAV planning: occupancy and holidays.' },
      { name: 'supplier-a', description: 'The supplier API of supplier-a; its listing is cached 30 minutes per query.' },
      { name: 'supplier-b', description: 'The supplier API of supplier-b; its listing is always read fresh.' },
      { name: 'files', description: "The files the supplier API links to: each line's shipping label, by its signed link or the supplier's token." },
      { name: 'chatbot', description: 'Customer-support lookups and SAV creation for the chatbot.' },
      { name: 'health', description: 'Liveness and readiness for load balancers.' },
      { name: 'metrics', description: 'The Prometheus metrics of the process.' },
      { name: 'reference', description: 'This document and its reference page.' },
      { name: 'audit', description: "The log's signed tree heads and proofs, for auditors (docs/audit.md)." },
    ],
    paths,
    webhooks: Object.fromEntries(
      (options.webhooks ?? []).map((webhook) => [
        webhook.name,
        {
          post: {
            summary: webhook.summary,
            description:
              "Sent to the subscription's URL, signed as Standard Webhooks says: headers webhook-id (the same at every attempt), webhook-timestamp, webhook-signature (v1,<base64 HMAC-SHA256 of id.timestamp.body>; two during a rotation).",
            requestBody: { required: true, content: { 'application/json': { schema: bodySchema(webhook.body, 'output') } } },
            responses: { '200': { description: 'Any 2xx within 10 s: delivered. Anything else is retried with backoff.' } },
          },
        },
      ]),
    ),
    components: {
      securitySchemes: {
        coreBearer: { type: 'http', scheme: 'bearer', description: 'A token of the core group (`cli token issue --group core`).' },
        supplierBearer: {
          type: 'http',
          scheme: 'bearer',
          description: "A supplier's token (`cli token issue --group supplier-a`), which opens that supplier's segment and labels only.",
        },
        apiToken: { type: 'apiKey', in: 'header', name: 'X-API-Token', description: 'A token of the chatbot group.' },
        metricsBearer: { type: 'http', scheme: 'bearer', description: "The scraper's `METRICS_TOKEN`, or a token of the analyst group." },
        auditorBearer: { type: 'http', scheme: 'bearer', description: 'A token of the auditor group (`cli token issue --group auditor`).' },
      },
      schemas: Object.fromEntries(Object.entries(options.components).map(([name, component]) => [name, componentJsonSchema(component)])),
    },
  };
};

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
