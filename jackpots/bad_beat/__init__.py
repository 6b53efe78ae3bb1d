"""The Bad Beat (§637a.15): claims at the table, their verification or denial, the distribution and the
payment of each share, the adjustments of the displayed amount and the transfer of a discontinued
fund; its rules, API, tablet pages, admin, reports and exports."""
