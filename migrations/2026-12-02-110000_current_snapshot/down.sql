DROP FUNCTION strata_current_snapshot();
