/** Why a SAV's decider refuses a command; the edge maps each code to its documented answer. */
export type SavRefusalCode = 'sav_exists' | 'unknown_sale_product' | 'no_product' | 'unknown_sav' | 'unknown_sav_file' | 'sav_status_conflict';
