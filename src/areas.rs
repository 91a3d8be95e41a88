//! The one list of business areas. Each line registers an area's GraphQL field groups, its
//! REST routes (`<area>::rest::ROUTES`, tagged with the area's name in the OpenAPI document)
//! and, where it has them, its per-request DataLoaders. The schema core (`crate::graphql`) and
//! the REST engine (`crate::rest`) read this list and import no area themselves: a new area is
//! one line here. An area with several field groups lists them with `&`
//! (`query CatalogQuery & CatalogStatsQuery`); each must be reachable as
//! `crate::<area>::graphql::<Group>`. An area with live streams adds
//! `subscription <Group>` (see `crate::production::live`).

use async_graphql::{MergedObject, MergedSubscription};

use crate::db::DbPool;
use crate::rest::Route;

/// A route and the area that declares it.
#[derive(Debug, Clone, Copy)]
pub struct AreaRoute {
    /// The area's name (its module), the route's OpenAPI tag.
    pub area: &'static str,
    /// The declaration.
    pub route: Route,
}

macro_rules! areas {
    ($($area:ident: query $($query:ident)&+ $(, mutation $($mutation:ident)&+)? $(, subscription $($subscription:ident)&+)? $(, loaders $loaders:path)?;)*) => {
        /// The Query root: the field groups of every business area.
        #[derive(MergedObject, Default)]
        #[graphql(name = "Query")]
        pub struct QueryRoot($($(crate::$area::graphql::$query,)+)*);

        /// The Mutation root: the field groups of every business area that changes data.
        #[derive(MergedObject, Default)]
        #[graphql(name = "Mutation")]
        pub struct MutationRoot($($($(crate::$area::graphql::$mutation,)+)?)*);

        /// The Subscription root: the live streams of the areas that offer them (served over
        /// graphql-ws at `/graphql/ws`).
        #[derive(MergedSubscription, Default)]
        #[graphql(name = "Subscription")]
        pub struct SubscriptionRoot($($($(crate::$area::graphql::$subscription,)+)?)*);

        /// Every REST route of every area, in registry order.
        pub fn routes() -> Vec<AreaRoute> {
            let mut all = Vec::new();
            $(all.extend(crate::$area::rest::ROUTES.iter().map(|route| AreaRoute {
                area: stringify!($area),
                route: *route,
            }));)*
            all
        }

        /// Attaches every area's per-request DataLoaders to a GraphQL request.
        pub fn loaders(request: async_graphql::Request, pool: &DbPool) -> async_graphql::Request {
            let _ = pool;
            $($(let request = $loaders(request, pool);)?)*
            request
        }
    };
}

areas! {
    system: query SystemQuery;
    identity: query IdentityQuery, mutation IdentityMutation;
    audit: query AuditQuery & SecurityScanQuery & SecurityRemediationQuery, mutation SecurityRemediationMutation;
    catalog: query CatalogQuery & CatalogStatsQuery & CatalogUomQuery & CatalogMaintenanceQuery, mutation CatalogMutation & CatalogStatsMutation & CatalogMaintenanceMutation, loaders crate::catalog::loaders::attach;
    partners: query PartnersQuery, mutation PartnersMutation;
    locations: query LocationsQuery, mutation LocationsMutation;
    printers: query PrintersQuery & PrinterBrandsQuery & PrinterMaintenanceQuery, mutation PrintersMutation & PrinterMaintenanceMutation & PrinterToolsMutation;
    scrap_reasons: query ScrapReasonsQuery, mutation ScrapReasonsMutation;
    inventory: query InventoryQuery, mutation InventoryMutation, loaders crate::inventory::loaders::attach;
    bom: query BomQuery, mutation BomMutation, loaders crate::bom::loaders::attach;
    accounting: query AccountingQuery & JournalsQuery & AuditTrailQuery, mutation AccountingMutation;
    materials: query MaterialsQuery, mutation MaterialsMutation;
    spools: query SpoolsQuery, mutation SpoolsMutation, loaders crate::spools::loaders::attach;
    purchasing: query PurchasingQuery, mutation PurchasingMutation, loaders crate::purchasing::loaders::attach;
    production: query ProductionQuery & ProductionFloorQuery, mutation ProductionMutation & ManufacturingMutation, subscription ProductionSubscription, loaders crate::production::loaders::attach;
    sales: query SalesQuery & QuotesQuery, mutation SalesMutation & QuotesMutation, loaders crate::sales::loaders::attach;
    shipping: query ShippingQuery, mutation ShippingMutation;
    dashboard: query DashboardQuery;
    traceability: query TraceabilityQuery, mutation TraceabilityMutation;
    reporting: query ReportingQuery, mutation ReportingMutation;
    settings: query SettingsQuery & SettingsLogoQuery & SettingsAiQuery & SettingsRegistryQuery, mutation SettingsMutation & SettingsLogoMutation & SettingsAiMutation & SettingsAiTestMutation & SettingsRegistryMutation;
}
