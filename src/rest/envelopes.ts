/**
 * How each API group writes an error body. The supplier API's bodies are fixed by the suppliers'
 * existing clients; the chatbot's texts are French; the core API uses one envelope for all statuses.
 */
export type ErrorEnvelope = (status: number, error: string, message: string) => Record<string, unknown>;

export const coreEnvelope: ErrorEnvelope = (_status, error, message) => ({ success: false, error, message });

export const supplierEnvelope: ErrorEnvelope = (status, error, message) => (status === 401 ? { error, message } : { success: false, message });

/** Texts the chatbot shows as they are: French, and never an internal detail. */
export const chatbotEnvelope: ErrorEnvelope = (_status, error, message) => ({ success: false, error, message });

/** The generic 500 of each group: no internal detail ever reaches the client. */
export const serverErrorTexts = {
  core: { error: 'Internal Server Error', message: 'An unexpected error occurred' },
  supplier: { error: 'Internal Server Error', message: 'An unexpected error occurred' },
  chatbot: { error: 'Erreur serveur', message: "Une erreur inattendue s'est produite" },
} as const;
