//! A multi-level BOM structure in memory: loaded level by level (three statements a level,
//! however many BOMs a level holds), then exploded, costed and checked without another
//! round trip. Cycles are found here too, whatever the rules let through in the past.

use std::collections::{HashMap, HashSet};

use bigdecimal::{BigDecimal, RoundingMode, Zero};
use diesel_async::AsyncPgConnection;

use crate::master_data::catalog::model::UomRow;
use crate::operations::bom::model::{self, BomLineRow, BomRow, Part};
use crate::platform::db::scale::{COST_SCALE, QUANTITY_SCALE as QTY_SCALE};
use crate::platform::error::AppResult;

/// Deepest structure walked (a product, its sub-assemblies, theirs...).
pub const MAX_DEPTH: usize = 25;

/// BOMs with every level below them, their components and the units.
#[derive(Debug, Default)]
pub struct Tree {
    boms: HashMap<i64, BomRow>,
    /// Product id -> its active BOM's id (absent: it has none, or it was never asked).
    active: HashMap<i64, i64>,
    lines: HashMap<i64, Vec<BomLineRow>>,
    parts: HashMap<i64, Part>,
    units: Vec<UomRow>,
}

/// A walk that met a product inside its own structure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle(pub Vec<String>);

impl Cycle {
    /// `Circular BOM: A -> B -> A`.
    pub fn message(&self) -> String {
        format!("Circular BOM: {}", self.0.join(" -> "))
    }
}

/// What one line costs.
#[derive(Debug, Clone)]
pub struct LineCost {
    /// The quantity needed per unit of the parent, in the component's stocking unit,
    /// scrap included.
    pub needed: BigDecimal,
    /// Cost of one stocking unit of the component (its own BOM's roll-up when it has one).
    pub unit_cost: BigDecimal,
    /// `needed × unit_cost`.
    pub line_cost: BigDecimal,
    /// Where the unit cost came from: `bom` (a roll-up) or `item` (its cost fields).
    pub source: &'static str,
}

/// One row of an explosion.
#[derive(Debug, Clone)]
pub struct Exploded {
    /// 1 for the BOM's own lines, 2 for their components' lines...
    pub level: i32,
    /// The BOM the line is on.
    pub bom_id: i64,
    /// The line.
    pub line: BomLineRow,
    /// The quantity needed for the whole explosion, in the component's stocking unit.
    pub extended_quantity: BigDecimal,
    /// Its cost.
    pub extended_cost: BigDecimal,
    /// Cost of one stocking unit.
    pub unit_cost: BigDecimal,
    /// Whether the component has an active BOM (its lines follow at the next level).
    pub has_bom: bool,
}

fn round(v: BigDecimal, scale: i64) -> BigDecimal {
    v.with_scale_round(scale, RoundingMode::HalfEven)
}

/// The cost of one stocking unit from an item's cost fields: standard cost for standard-cost
/// items, else the moving average, else the last receipt's, else standard, else zero.
pub fn item_unit_cost(part: &Part) -> BigDecimal {
    let standard_first = part.cost_method == "standard";
    let ordered = if standard_first {
        [&part.standard_cost, &part.average_cost, &part.last_cost]
    } else {
        [&part.average_cost, &part.last_cost, &part.standard_cost]
    };
    ordered
        .into_iter()
        .flatten()
        .next()
        .cloned()
        .unwrap_or_default()
}

impl Tree {
    /// Loads these BOMs and everything below them.
    pub async fn load(conn: &mut AsyncPgConnection, roots: Vec<BomRow>) -> AppResult<Tree> {
        let mut tree = Tree {
            units: crate::master_data::catalog::model::units(conn).await?,
            ..Tree::default()
        };
        let mut wanted_parts: Vec<i64> = roots.iter().map(|b| b.product_id).collect();
        let mut frontier: Vec<i64> = Vec::new();
        for bom in roots {
            if bom.active {
                tree.active.insert(bom.product_id, bom.id);
            }
            frontier.push(bom.id);
            tree.boms.insert(bom.id, bom);
        }
        // Products whose active BOM has been looked up (or is a root).
        let mut asked: HashSet<i64> = tree.active.keys().copied().collect();
        for _ in 0..MAX_DEPTH {
            if frontier.is_empty() {
                break;
            }
            let lines = model::lines_of(conn, &frontier).await?;
            let components: Vec<i64> = lines.iter().map(|l| l.component_id).collect();
            for l in lines {
                tree.lines.entry(l.bom_id).or_default().push(l);
            }
            for id in &frontier {
                tree.lines.entry(*id).or_default();
            }
            wanted_parts.extend(components.iter().copied());
            wanted_parts.retain(|id| !tree.parts.contains_key(id));
            wanted_parts.sort_unstable();
            wanted_parts.dedup();
            for part in model::parts(conn, &wanted_parts).await? {
                tree.parts.insert(part.id, part);
            }
            wanted_parts.clear();
            let mut ask: Vec<i64> = components
                .into_iter()
                .filter(|id| asked.insert(*id))
                .collect();
            ask.sort_unstable();
            ask.dedup();
            frontier = Vec::new();
            if !ask.is_empty() {
                for bom in model::active_of(conn, &ask).await? {
                    tree.active.insert(bom.product_id, bom.id);
                    if let std::collections::hash_map::Entry::Vacant(slot) = tree.boms.entry(bom.id)
                    {
                        frontier.push(bom.id);
                        slot.insert(bom);
                    }
                }
            }
        }
        if !wanted_parts.is_empty() {
            for part in model::parts(conn, &wanted_parts).await? {
                tree.parts.insert(part.id, part);
            }
        }
        Ok(tree)
    }

    /// A loaded BOM.
    pub fn bom(&self, id: i64) -> Option<&BomRow> {
        self.boms.get(&id)
    }

    /// A loaded item.
    pub fn part(&self, id: i64) -> Option<&Part> {
        self.parts.get(&id)
    }

    /// Every line of every BOM loaded.
    pub fn all_lines(&self) -> impl Iterator<Item = &BomLineRow> {
        self.lines.values().flatten()
    }

    /// A BOM's lines.
    pub fn lines(&self, bom_id: i64) -> &[BomLineRow] {
        self.lines.get(&bom_id).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The active BOM of a component, when it has one with lines.
    pub fn sub_bom(&self, product_id: i64) -> Option<&BomRow> {
        self.active
            .get(&product_id)
            .and_then(|id| self.boms.get(id))
            .filter(|b| !self.lines(b.id).is_empty())
    }

    fn unit(&self, code: &str) -> Option<&UomRow> {
        self.units
            .iter()
            .find(|u| u.code.eq_ignore_ascii_case(code))
    }

    /// A line's quantity in the component's stocking unit, or why it cannot be converted.
    pub fn quantity_in_stock_unit(&self, line: &BomLineRow) -> Result<BigDecimal, String> {
        let Some(part) = self.parts.get(&line.component_id) else {
            return Err(format!("Component {} not found", line.component_id));
        };
        let same = line.unit.eq_ignore_ascii_case(&part.unit);
        if !same && (self.unit(&line.unit).is_none() || self.unit(&part.unit).is_none()) {
            return Err(format!(
                "Unit {} of {} cannot be converted to its stocking unit {}",
                line.unit, part.sku, part.unit
            ));
        }
        crate::master_data::catalog::uom::convert_codes(
            &self.units,
            &line.quantity.0,
            &line.unit,
            &part.unit,
        )
    }

    /// The quantity a line needs per unit of its parent, scrap included, in the component's
    /// stocking unit (an unconvertible unit counts as the stocking unit; `validate` says so).
    pub fn needed(&self, line: &BomLineRow) -> BigDecimal {
        let qty = self
            .quantity_in_stock_unit(line)
            .unwrap_or_else(|_| line.quantity.0.clone());
        let scrap = BigDecimal::from(1) + &line.scrap_factor.0 / BigDecimal::from(100);
        round(qty * scrap, QTY_SCALE)
    }

    fn sku(&self, product_id: i64) -> String {
        self.parts
            .get(&product_id)
            .map(|p| p.sku.clone())
            .unwrap_or_else(|| product_id.to_string())
    }

    /// The cost of one unit made with this BOM (components plus process cost), and each
    /// line's cost; sub-assemblies are costed by their own active BOMs.
    pub fn cost(&self, bom_id: i64) -> Result<(BigDecimal, HashMap<i64, LineCost>), Cycle> {
        let mut memo = HashMap::new();
        let mut path = Vec::new();
        let total = self.cost_of(bom_id, &mut path, &mut memo)?;
        let mut lines = HashMap::new();
        for line in self.lines(bom_id) {
            lines.insert(line.id, self.line_cost(line, &mut path, &mut memo)?);
        }
        Ok((total, lines))
    }

    /// Component cost per unit (without the process cost) of a BOM.
    pub fn material_cost(&self, bom_id: i64) -> Result<BigDecimal, Cycle> {
        let mut memo = HashMap::new();
        let mut path = Vec::new();
        let mut sum = BigDecimal::from(0);
        for line in self.lines(bom_id) {
            sum += self.line_cost(line, &mut path, &mut memo)?.line_cost;
        }
        Ok(round(sum, COST_SCALE))
    }

    fn enter(&self, bom: &BomRow, path: &mut Vec<i64>) -> Result<(), Cycle> {
        if path.contains(&bom.product_id) {
            let mut names: Vec<String> = path
                .iter()
                .skip_while(|p| **p != bom.product_id)
                .map(|p| self.sku(*p))
                .collect();
            names.push(self.sku(bom.product_id));
            return Err(Cycle(names));
        }
        path.push(bom.product_id);
        Ok(())
    }

    fn cost_of(
        &self,
        bom_id: i64,
        path: &mut Vec<i64>,
        memo: &mut HashMap<i64, BigDecimal>,
    ) -> Result<BigDecimal, Cycle> {
        if let Some(c) = memo.get(&bom_id) {
            return Ok(c.clone());
        }
        let Some(bom) = self.boms.get(&bom_id) else {
            return Ok(BigDecimal::from(0));
        };
        self.enter(bom, path)?;
        let mut sum = bom.process_cost.0.clone();
        for line in self.lines(bom_id) {
            sum += self.line_cost(line, path, memo)?.line_cost;
        }
        path.pop();
        let sum = round(sum, COST_SCALE);
        memo.insert(bom_id, sum.clone());
        Ok(sum)
    }

    fn line_cost(
        &self,
        line: &BomLineRow,
        path: &mut Vec<i64>,
        memo: &mut HashMap<i64, BigDecimal>,
    ) -> Result<LineCost, Cycle> {
        let (unit_cost, source) = match self.sub_bom(line.component_id) {
            Some(sub) => (self.cost_of(sub.id, path, memo)?, "bom"),
            None => (
                self.parts
                    .get(&line.component_id)
                    .map(item_unit_cost)
                    .unwrap_or_default(),
                "item",
            ),
        };
        if path.contains(&line.component_id) {
            let mut names: Vec<String> = path
                .iter()
                .skip_while(|p| **p != line.component_id)
                .map(|p| self.sku(*p))
                .collect();
            names.push(self.sku(line.component_id));
            return Err(Cycle(names));
        }
        let needed = self.needed(line);
        let line_cost = round(&needed * &unit_cost, COST_SCALE);
        Ok(LineCost {
            needed,
            unit_cost: round(unit_cost, COST_SCALE),
            line_cost,
            source,
        })
    }

    /// Every line below a BOM, depth first (a line, then its component's lines), for
    /// `quantity` units of the product.
    pub fn explode(&self, bom_id: i64, quantity: &BigDecimal) -> Result<Vec<Exploded>, Cycle> {
        let mut out = Vec::new();
        let mut path = Vec::new();
        let mut memo = HashMap::new();
        self.explode_into(bom_id, quantity, 1, &mut path, &mut memo, &mut out)?;
        Ok(out)
    }

    fn explode_into(
        &self,
        bom_id: i64,
        multiplier: &BigDecimal,
        level: i32,
        path: &mut Vec<i64>,
        memo: &mut HashMap<i64, BigDecimal>,
        out: &mut Vec<Exploded>,
    ) -> Result<(), Cycle> {
        let Some(bom) = self.boms.get(&bom_id) else {
            return Ok(());
        };
        self.enter(bom, path)?;
        for line in self.lines(bom_id) {
            let cost = self.line_cost(line, path, memo)?;
            let extended = round(&cost.needed * multiplier, QTY_SCALE);
            let sub = self.sub_bom(line.component_id);
            out.push(Exploded {
                level,
                bom_id,
                line: line.clone(),
                extended_cost: round(&extended * &cost.unit_cost, COST_SCALE),
                extended_quantity: extended.clone(),
                unit_cost: cost.unit_cost,
                has_bom: sub.is_some(),
            });
            if let Some(sub) = sub {
                self.explode_into(sub.id, &extended, level + 1, path, memo, out)?;
            }
        }
        path.pop();
        Ok(())
    }

    /// What is wrong (errors) or worth a look (warnings) in a BOM and below it.
    pub fn validate(&self, bom_id: i64) -> (Vec<String>, Vec<String>) {
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        let Some(bom) = self.boms.get(&bom_id) else {
            errors.push("BOM not found".to_string());
            return (errors, warnings);
        };
        if self.lines(bom_id).is_empty() {
            errors.push("The BOM has no lines".to_string());
        }
        if let Some(p) = self.parts.get(&bom.product_id)
            && !p.active
        {
            warnings.push(format!("The product {} is inactive", p.sku));
        }
        for line in self.lines(bom_id) {
            let Some(part) = self.parts.get(&line.component_id) else {
                errors.push(format!("Line {}: component not found", line.sequence));
                continue;
            };
            if line.component_id == bom.product_id {
                errors.push(format!(
                    "Line {}: {} is the product itself",
                    line.sequence, part.sku
                ));
            }
            if !part.active {
                errors.push(format!(
                    "Line {}: component {} is inactive",
                    line.sequence, part.sku
                ));
            }
            if let Err(e) = self.quantity_in_stock_unit(line) {
                errors.push(format!("Line {}: {e}", line.sequence));
            }
            if self.sub_bom(line.component_id).is_none()
                && item_unit_cost(part).is_zero()
                && !line.is_cost_only
            {
                warnings.push(format!(
                    "Line {}: component {} has no cost",
                    line.sequence, part.sku
                ));
            }
        }
        if let Err(cycle) = self.cost(bom_id) {
            errors.push(cycle.message());
        }
        (errors, warnings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::bom::model::ConsumeStage;
    use crate::platform::graphql::scalars::{Decimal, Timestamp};

    fn d(s: &str) -> BigDecimal {
        s.parse().unwrap()
    }

    fn part(id: i64, sku: &str, unit: &str, cost: &str) -> Part {
        Part {
            id,
            sku: sku.into(),
            name: sku.into(),
            unit: unit.into(),
            item_type: "component".into(),
            cost_method: "average".into(),
            standard_cost: None,
            average_cost: Some(d(cost)),
            last_cost: None,
            active: true,
        }
    }

    fn bom(id: i64, product: i64, process: &str) -> BomRow {
        BomRow {
            id,
            product_id: product,
            code: format!("B{id}"),
            name: format!("B{id}"),
            version: 1,
            revision: None,
            active: true,
            assembly_time_minutes: None,
            effective_date: None,
            notes: None,
            process_cost: Decimal(d(process)),
            material_cost: Decimal(d("0")),
            created_at: Timestamp(chrono::Utc::now()),
            updated_at: Timestamp(chrono::Utc::now()),
        }
    }

    fn line(id: i64, bom: i64, component: i64, qty: &str, unit: &str, scrap: &str) -> BomLineRow {
        BomLineRow {
            id,
            bom_id: bom,
            component_id: component,
            quantity: Decimal(d(qty)),
            unit: unit.into(),
            sequence: id as i32,
            consume_stage: ConsumeStage::Production,
            is_cost_only: false,
            scrap_factor: Decimal(d(scrap)),
            notes: None,
            created_at: Timestamp(chrono::Utc::now()),
            updated_at: Timestamp(chrono::Utc::now()),
        }
    }

    fn uom(code: &str, class: &str, factor: &str) -> UomRow {
        UomRow {
            id: 0,
            code: code.into(),
            name: code.into(),
            symbol: code.into(),
            uom_class: class.into(),
            base_unit_code: None,
            to_base_factor: d(factor),
            active: true,
        }
    }

    /// Widget (1) = 2 × bracket (2) + 50 G of PLA (3, costed per KG... stocked in G here);
    /// bracket = 10 G of PLA + 0.5 process.
    fn widget() -> Tree {
        let mut t = Tree {
            units: vec![uom("G", "weight", "0.001"), uom("KG", "weight", "1")],
            ..Tree::default()
        };
        for p in [
            part(1, "WIDGET", "EA", "0"),
            part(2, "BRACKET", "EA", "9"),
            part(3, "PLA", "G", "0.02"),
        ] {
            t.parts.insert(p.id, p);
        }
        t.boms.insert(10, bom(10, 1, "1.00"));
        t.boms.insert(20, bom(20, 2, "0.50"));
        t.active.insert(1, 10);
        t.active.insert(2, 20);
        t.lines.insert(
            10,
            vec![
                line(1, 10, 2, "2", "EA", "0"),
                line(2, 10, 3, "0.05", "KG", "10"),
            ],
        );
        t.lines.insert(20, vec![line(3, 20, 3, "10", "G", "0")]);
        t
    }

    #[test]
    fn costs_roll_up_through_sub_assemblies_with_units_and_scrap() {
        let t = widget();
        let (total, lines) = t.cost(10).unwrap();
        // Bracket: 10 G × 0.02 + 0.50 = 0.70 (its own BOM, not its item cost of 9).
        assert_eq!(lines[&1].unit_cost, d("0.7"));
        assert_eq!(lines[&1].source, "bom");
        assert_eq!(lines[&1].line_cost, d("1.4"));
        // PLA: 0.05 KG = 50 G, +10 % scrap = 55 G × 0.02 = 1.10.
        assert_eq!(lines[&2].needed, d("55"));
        assert_eq!(lines[&2].line_cost, d("1.1"));
        assert_eq!(total, d("3.5"));
        assert_eq!(t.material_cost(10).unwrap(), d("2.5"));
    }

    #[test]
    fn explosion_multiplies_down_the_levels() {
        let t = widget();
        let rows = t.explode(10, &d("3")).unwrap();
        let summary: Vec<(i32, i64, BigDecimal)> = rows
            .iter()
            .map(|r| (r.level, r.line.component_id, r.extended_quantity.clone()))
            .collect();
        assert_eq!(
            summary,
            vec![(1, 2, d("6")), (2, 3, d("60")), (1, 3, d("165"))]
        );
    }

    #[test]
    fn a_cycle_is_reported_with_its_path() {
        let mut t = widget();
        // The bracket now needs a widget.
        t.lines
            .get_mut(&20)
            .unwrap()
            .push(line(4, 20, 1, "1", "EA", "0"));
        let err = t.cost(10).unwrap_err();
        assert_eq!(err.message(), "Circular BOM: WIDGET -> BRACKET -> WIDGET");
        let (errors, _) = t.validate(10);
        assert!(
            errors.iter().any(|e| e.starts_with("Circular BOM")),
            "{errors:?}"
        );
    }

    #[test]
    fn validation_names_unconvertible_units_and_missing_costs() {
        let mut t = widget();
        t.lines
            .get_mut(&10)
            .unwrap()
            .push(line(5, 10, 3, "1", "EA", "0"));
        t.parts.get_mut(&3).unwrap().average_cost = None;
        let (errors, warnings) = t.validate(10);
        assert!(
            errors.iter().any(|e| e.contains("cannot be converted")),
            "{errors:?}"
        );
        assert!(
            warnings.iter().any(|w| w.contains("has no cost")),
            "{warnings:?}"
        );
    }
}
