DROP INDEX scrap_reasons_code_unique;
CREATE UNIQUE INDEX scrap_reasons_code_unique ON scrap_reasons (lower(code));
