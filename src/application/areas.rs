//! The one list of business areas, and what the platform receives from it at start-up.
//! Each line registers an area (as `<layer>::<area>`) with its GraphQL field groups, its
//! REST routes (`<area>::rest::ROUTES`, tagged with the area's name in the OpenAPI
//! document) and, where it has them, its per-request DataLoaders. The platform's GraphQL
//! engine and REST engine import no area: they are handed the schema ([`schema`]), the
//! route table ([`route_table`]) and the job kinds ([`jobs`]) built here, so a new area is
//! one line here. An area with several field groups lists them with `&`
//! (`query CatalogQuery & CatalogStatsQuery`); each must be reachable as
//! `crate::<layer>::<area>::graphql::<Group>`. An area with live streams adds
//! `subscription <Group>` (see `crate::operations::production::live`). An area whose routes
//! live in a sub-folder too adds `routes <path>, <path>` (production's routings).

use async_graphql::{MergedObject, MergedSubscription};

use crate::platform::db::DbPool;
use crate::platform::graphql::{AppSchema, Mode, SchemaData};
use crate::platform::jobs::Registry;
use crate::platform::rest::{AreaRoute, RouteTable};

macro_rules! areas {
    ($($layer:ident::$area:ident: query $($query:ident)&+ $(, mutation $($mutation:ident)&+)? $(, subscription $($subscription:ident)&+)? $(, loaders $loaders:path)? $(, routes $($routes:path),+)?;)*) => {
        /// The Query root: the field groups of every business area.
        #[derive(MergedObject, Default)]
        #[graphql(name = "Query")]
        pub struct QueryRoot($($(crate::$layer::$area::graphql::$query,)+)*);

        /// The Mutation root: the field groups of every business area that changes data.
        #[derive(MergedObject, Default)]
        #[graphql(name = "Mutation")]
        pub struct MutationRoot($($($(crate::$layer::$area::graphql::$mutation,)+)?)*);

        /// The Subscription root: the live streams of the areas that offer them (served over
        /// graphql-ws at `/graphql/ws`).
        #[derive(MergedSubscription, Default)]
        #[graphql(name = "Subscription")]
        pub struct SubscriptionRoot($($($(crate::$layer::$area::graphql::$subscription,)+)?)*);

        /// Every REST route of every area, in registry order.
        pub fn routes() -> Vec<AreaRoute> {
            let mut all = Vec::new();
            $(
                all.extend(crate::$layer::$area::rest::ROUTES.iter().map(|route| AreaRoute {
                    area: stringify!($area),
                    route: *route,
                }));
                $($(all.extend($routes.iter().map(|route| AreaRoute {
                    area: stringify!($area),
                    route: *route,
                }));)+)?
            )*
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
    master_data::system: query SystemQuery;
    master_data::identity: query IdentityQuery, mutation IdentityMutation, loaders crate::master_data::identity::loaders::attach;
    master_data::audit: query AuditQuery & SecurityScanQuery & SecurityRemediationQuery, mutation SecurityRemediationMutation;
    master_data::catalog: query CatalogQuery & CatalogStatsQuery & CatalogUomQuery & CatalogMaintenanceQuery & ProductImageQuery, mutation CatalogMutation & CatalogStatsMutation & CatalogMaintenanceMutation & CatalogUomMutation & ProductImageMutation, loaders crate::master_data::catalog::loaders::attach;
    master_data::tax: query TaxRatesQuery, mutation TaxRatesMutation;
    master_data::pricing: query PricingQuery, mutation PricingMutation;
    master_data::partners: query PartnersQuery, mutation PartnersMutation;
    master_data::locations: query LocationsQuery, mutation LocationsMutation;
    operations::printers: query PrintersQuery & PrinterBrandsQuery & PrinterMaintenanceQuery, mutation PrintersMutation & PrinterMaintenanceMutation & PrinterToolsMutation, loaders crate::operations::printers::loaders::attach;
    operations::scrap_reasons: query ScrapReasonsQuery, mutation ScrapReasonsMutation;
    ledgers::inventory: query InventoryQuery, mutation InventoryMutation, loaders crate::ledgers::inventory::loaders::attach;
    operations::bom: query BomQuery, mutation BomMutation & BomCostingMutation, loaders crate::operations::bom::loaders::attach;
    ledgers::accounting: query AccountingQuery & JournalsQuery, mutation AccountingMutation;
    ledgers::materials: query MaterialsQuery & MaterialCatalogueQuery, mutation MaterialsMutation & MaterialItemsMutation & MaterialCatalogueMutation;
    ledgers::spools: query SpoolsQuery, mutation SpoolsMutation, loaders crate::ledgers::spools::loaders::attach;
    operations::purchasing: query PurchasingQuery & ItemDemandQuery, mutation PurchasingMutation, loaders crate::operations::purchasing::loaders::attach;
    operations::production: query ProductionQuery & ProductionFloorQuery & RoutingQuery & OrderDetailQuery & VariantsQuery, mutation ProductionMutation & ManufacturingMutation & RoutingMutation & OrderDetailMutation & VariantsMutation, subscription ProductionSubscription, loaders crate::operations::production::loaders::attach, routes crate::operations::production::routing::rest::ROUTES, crate::operations::production::detail::rest::ROUTES, crate::operations::production::variants::rest::ROUTES;
    operations::quality: query QualityQuery, mutation QualityMutation, loaders crate::operations::quality::graphql::attach;
    operations::sales: query SalesQuery & QuotesQuery & InvoicesQuery & MessagesQuery, mutation SalesMutation & QuotesMutation & InvoicesMutation & MessagesMutation, loaders crate::operations::sales::loaders::attach, routes crate::operations::sales::invoices::rest::ROUTES, crate::operations::sales::messages::rest::ROUTES;
    operations::shipping: query ShippingQuery, mutation ShippingMutation;
    operations::planning: query PlanningQuery, mutation PlanningMutation;
    operations::scheduling: query SchedulingQuery & ScheduleQuery, mutation SchedulingMutation & ScheduleMutation;
    read_models::dashboard: query DashboardQuery;
    read_models::audit_trail: query AuditTrailQuery;
    operations::traceability: query TraceabilityQuery, mutation TraceabilityMutation;
    read_models::reporting: query ReportingQuery & OrderCostQuery, mutation ReportingMutation;
    master_data::settings: query SettingsQuery & SettingsLogoQuery & SettingsAiQuery & SettingsRegistryQuery, mutation SettingsMutation & SettingsLogoMutation & SettingsAiMutation & SettingsAiTestMutation & SettingsRegistryMutation;
}

/// The schema of every area for one mode, with the process's data when given.
pub fn schema(mode: Mode, data: Option<SchemaData>) -> AppSchema {
    crate::platform::graphql::assemble::<QueryRoot, MutationRoot, SubscriptionRoot>(
        mode,
        data,
        loaders,
        crate::application::hooks::attach,
    )
}

/// The SDL that `strata schema` prints and `schema.graphql` holds.
pub fn sdl() -> String {
    schema(Mode::Served, None).sdl()
}

/// Every job kind of the service.
pub fn jobs() -> Registry {
    Registry::default()
        .register::<crate::platform::mail::SendMail>()
        .register::<crate::master_data::identity::password_reset::ResetRequested>()
        .register::<crate::read_models::reporting::export::RunBulkExport>()
        .register::<crate::read_models::reporting::export::ExpireBulkExports>()
}

/// The process's REST route table: every area's routes compiled against the schema and
/// validated, built on first use. A broken stored operation fails it, naming the route.
pub fn route_table() -> anyhow::Result<&'static RouteTable> {
    static TABLE: std::sync::OnceLock<Result<RouteTable, String>> = std::sync::OnceLock::new();
    TABLE
        .get_or_init(|| {
            RouteTable::build(&routes(), &sdl(), &schema(Mode::Validation, None))
                .map_err(|e| format!("{e:#}"))
        })
        .as_ref()
        .map_err(|e| anyhow::anyhow!("{e}"))
}
