-- One case rule for codes: unique and looked up by upper(code) (scrap reason codes are still
-- stored lower case, as the contract shows them).
DROP INDEX scrap_reasons_code_unique;
CREATE UNIQUE INDEX scrap_reasons_code_unique ON scrap_reasons (upper(code));
